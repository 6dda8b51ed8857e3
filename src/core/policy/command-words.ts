/**
 * How a deny (or ask) rule reads a command's text: generously, so that a way of writing the same
 * command does not slip past it. A shell runs `git --no-pager push`, `'git' push`, `g\it push`,
 * `/usr/bin/git -C . push` and `bash -c "git push"` alike; a rule `git push` must catch each. So
 * the text is cut into the commands it may run (at `;`, `&`, `|`, parentheses, newlines and
 * backquotes, inside quotes too), quotes and escapes are dropped from each word, and a rule
 * matches a command whose words hold the rule's in order, anything between them. It may match
 * more than runs (`git log --grep push`): for a deny that is the safe side. What no reading can
 * see through (`$(echo git) push`) an allow never covers either (personal-rules.ts): it is asked.
 */

/** Each command the text may run, as its words (some more than once, read more than one way). */
export function commandsInText(text: string): string[][] {
  // A backslash before a newline joins the lines; PowerShell's backquote escapes the next
  // character where a POSIX shell's starts a command; a backslash escapes in one shell and
  // separates folders in the other (`C:\Git\bin\git.exe`): each reading is taken.
  const joined = text.replace(/[\\`]\r?\n/gu, "");
  const posix = joined.split(/[;&|()\n`{}]+/u);
  const powerShell = joined.replaceAll("`", "").split(/[;&|()\n{}]+/u);
  return [...commandsOf(posix, ""), ...commandsOf(powerShell, ""), ...commandsOf(powerShell, "/")];
}

function commandsOf(pieces: readonly string[], backslash: string): string[][] {
  return pieces
    .map((piece) =>
      piece
        .split(/[\s<>]+/u)
        .map((word) => unquoted(word, backslash))
        .filter((word) => word !== ""),
    )
    .filter((words) => words.length > 0);
}

/** `'git'`, `"git"`, `g\it`, `$'git'` and `g''it` are all `git` to a shell. */
function unquoted(word: string, backslash: string): string {
  return word
    .replace(/\$(?=['"])/gu, "")
    .replace(/['"]/gu, "")
    .replaceAll("\\", backslash);
}

/**
 * Whether `words` run what `rule` names: its first word as a program (by name, wherever it lies
 * and however its case is written, `.exe` or not), then each of its other words, in order.
 */
export function runsRule(words: readonly string[], rule: readonly string[]): boolean {
  const [program, ...rest] = rule;
  if (program === undefined) return false;
  for (let at = 0; at < words.length; at += 1) {
    if (sameProgram(words[at] ?? "", program) && inOrder(words, rest, at + 1)) return true;
  }
  return false;
}

function sameProgram(word: string, program: string): boolean {
  const name = (word.split("/").pop() ?? word).toLowerCase().replace(/\.exe$/u, "");
  return name === program.toLowerCase() || word === program;
}

/** Whether `wanted` appear in `words`, in order, from `from` on (other words between them). */
function inOrder(words: readonly string[], wanted: readonly string[], from: number): boolean {
  let next = 0;
  for (let at = from; at < words.length && next < wanted.length; at += 1) {
    if (namesWord(words[at] ?? "", wanted[next] ?? "")) next += 1;
  }
  return next === wanted.length;
}

/** `push`, or a setting that holds it (`alias.p=push`: git's `-c` makes `p` run `push`). */
function namesWord(word: string, wanted: string): boolean {
  return word === wanted || word.split(/[=,]/u).includes(wanted);
}
