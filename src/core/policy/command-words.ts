/**
 * How a deny (or ask) rule reads a command's text, so that a way of writing the same command does
 * not slip past it. A shell runs `'git' push`, `g\it push`, `/usr/bin/git push` and
 * `bash -c "git push"` alike, so the text is cut into the commands it may run (at `;`, `&`, `|`,
 * parentheses, newlines and backquotes, inside quotes too) and quotes and escapes are dropped
 * from each word. Then two readings: exactly (the rule's words right after its program), which a
 * deny denies; and generously (`git --no-pager push`, `git -C . push`, `rm -fr` for `rm -rf`),
 * which may also catch what does not run it (`git stash push`), so a deny only asks there. What
 * no reading can see through (`$(echo git) push`) an allow never covers either (personal-rules.ts):
 * it is asked.
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
 * Whether `words` run exactly what `rule` names: its first word as a program (by name, wherever
 * it lies and however its case is written, `.exe` or not: `sudo git push`, `bash -c "git push"`),
 * then the rule's other words right after it. A deny that matches so denies.
 */
export function runsRuleExactly(words: readonly string[], rule: readonly string[]): boolean {
  const [program, ...rest] = rule;
  if (program === undefined) return false;
  return programsAt(words, program).some((at) =>
    rest.every((word, index) => words[at + 1 + index] === word),
  );
}

/**
 * Whether `words` may run what `rule` names, read generously: after the program, the rule's
 * other words in order with anything between them (`git --no-pager push`, `git stash push`), a
 * setting that holds one (`alias.p=push`), and its options in any spelling (an option of a rule
 * stands for its letters in any cluster, `-rf` for `-r -f`, `-fr` or `-Rf`, and a long option for
 * any prefix of it; a short option may be a long one's alias and the other way round, so either
 * kind covers the other). Configuration set on the command line (`git -c include.path=…`,
 * `--config-env`) may make any word run anything: a rule for that program matches. A deny that
 * matches only so asks (personal-rules.ts): the person sees what runs.
 */
export function runsRule(words: readonly string[], rule: readonly string[]): boolean {
  const [program, ...rest] = rule;
  if (program === undefined) return false;
  const names = rest.filter((word) => !isOption(word));
  const options = rest.filter(isOption);
  return programsAt(words, program).some((at) => {
    const after = words.slice(at + 1);
    if (after.some(setsConfiguration)) return true;
    return inOrder(after, names) && options.every((option) => hasOption(after, option));
  });
}

/** Where `program` stands among `words`, by name: `git`, `/usr/bin/git`, `GIT`, `git.exe`. */
function programsAt(words: readonly string[], program: string): number[] {
  const found: number[] = [];
  for (const [at, word] of words.entries()) {
    const name = (word.split("/").pop() ?? word).toLowerCase().replace(/\.exe$/u, "");
    if (name === program.toLowerCase() || word === program) found.push(at);
  }
  return found;
}

/** Whether `wanted` appear in `words`, in order (other words between them). */
function inOrder(words: readonly string[], wanted: readonly string[]): boolean {
  let next = 0;
  for (const word of words) {
    if (next < wanted.length && namesWord(word, wanted[next] ?? "")) next += 1;
  }
  return next === wanted.length;
}

/** `push`, or a setting that holds it (`alias.p=push`: git's `-c` makes `p` run `push`). */
function namesWord(word: string, wanted: string): boolean {
  return word === wanted || word.split(/[=,]/u).includes(wanted);
}

function isOption(word: string): boolean {
  return /^-[^-\d]/u.test(word) || /^--[^-]/u.test(word);
}

const isLong = (word: string): boolean => word.startsWith("--");

/** The letters of the short-option clusters among `words`, in lower case (`-Rf` gives r, f). */
function shortLetters(words: readonly string[]): Set<string> {
  const letters = new Set<string>();
  for (const word of words) {
    if (!isOption(word) || isLong(word)) continue;
    for (const letter of word.slice(1).toLowerCase()) letters.add(letter);
  }
  return letters;
}

function hasOption(words: readonly string[], option: string): boolean {
  const options = words.filter(isOption);
  if (isLong(option)) {
    const name = option.split("=")[0] ?? option;
    return options.some((word) => {
      if (!isLong(word)) return true;
      const given = word.split("=")[0] ?? word;
      // getopt takes any unambiguous prefix: `--forc` is `--force`.
      return given.length > 2 && name.startsWith(given);
    });
  }
  if (options.some(isLong)) return true;
  const letters = shortLetters(options);
  return Array.from(option.slice(1).toLowerCase()).every((letter) => letters.has(letter));
}

/** Configuration given on the command line, which may make any word run anything. */
function setsConfiguration(word: string): boolean {
  return word === "-c" || word === "--config-env" || word.startsWith("--config-env=");
}
