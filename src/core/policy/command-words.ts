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
 * Whether `words` surely run what `rule` names: its program (by name, wherever it stands and
 * however its case is written, `.exe` or not, or glued to an option: `env -Sgit`), then the
 * rule's other words as the first words after it that are not options (`git --no-pager push`,
 * `git -C . push`: an option may take the next word as its value, and either reading counts; an
 * alias given with `-c alias.p=push` stands for what it names), and the rule's options among the
 * command's (`-rf` as letters of any cluster: `rm -v -fr`). A deny that matches so denies.
 */
export function runsRuleExactly(words: readonly string[], rule: readonly string[]): boolean {
  const [program, ...rest] = rule;
  if (program === undefined) return false;
  // Too long to read further: its program named is enough for a deny.
  if (words.length > MOST_WORDS_READ) return programsAt(words, program).length > 0;
  const names = rest.filter((word) => !isOption(word));
  const options = rest.filter(isOption);
  return programsAt(words, program).some((at) => {
    const after = words.slice(at + 1);
    return firstNamesAre(after, names) && options.every((option) => hasOption(after, option));
  });
}

/**
 * Whether `words` may run what `rule` names, read generously: its program, then the rule's
 * other words in order with anything between them (`git stash push` too), or a setting that holds
 * one (`alias.p=push`); configuration given on the command line (`git -c include.path=…`,
 * `--config-env`) may make any word run anything, so it matches too. A rule's options do not
 * count here: they narrow what it denies, so a command they might not describe (`git push
 * origin +main` for `git push --force`) is still one that may run it. A deny that matches only so
 * asks, naming itself, and no allow answers (personal-rules.ts).
 */
export function runsRule(words: readonly string[], rule: readonly string[]): boolean {
  const [program, ...rest] = rule;
  if (program === undefined) return false;
  if (words.length > MOST_WORDS_READ) return true;
  const names = rest.filter((word) => !isOption(word));
  return programsAt(words, program).some((at) => {
    const after = words.slice(at + 1);
    const before = words.slice(0, at);
    return (
      before.some(setsConfigurationByEnvironment) ||
      after.some(setsConfiguration) ||
      inOrder(after, names)
    );
  });
}

/**
 * A variable set before the program (`GIT_CONFIG_GLOBAL=p.cfg git p`, `env HOME=x git p`) that
 * points it at other configuration: git's own, and the home and config folders it reads.
 */
function setsConfigurationByEnvironment(word: string): boolean {
  return /^(?:GIT_[A-Z0-9_]*|HOME|XDG_CONFIG_HOME)=/u.test(word);
}

/** Where `program` stands among `words`, by name, or as the value glued to an option. */
function programsAt(words: readonly string[], program: string): number[] {
  const found: number[] = [];
  for (const [at, word] of words.entries()) {
    if (spellings(word).some((spelt) => namesProgram(spelt, program))) found.push(at);
  }
  return found;
}

/** A word as itself, and an option's glued value: `-Sgit`, `--split-string=git`. */
function spellings(word: string): string[] {
  if (!isOption(word)) return [word];
  const equals = word.indexOf("=");
  return [
    word,
    ...(equals > 0 ? [word.slice(equals + 1)] : []),
    ...(isLong(word) ? [] : [word.slice(2)]),
  ];
}

function namesProgram(word: string, program: string): boolean {
  const name = (word.split("/").pop() ?? word).toLowerCase().replace(/\.exe$/u, "");
  return name === program.toLowerCase() || word === program;
}

/**
 * Whether the first words of `words` that are not options are `names`. An option without a glued
 * value (`-C`, `--git-dir`) may take the next word as its value: both readings are tried.
 */
function firstNamesAre(words: readonly string[], names: readonly string[]): boolean {
  const aliases = aliasesIn(words);
  const tried = new Set<string>();
  const from = (at: number, matched: number): boolean => {
    if (matched === names.length) return true;
    const key = `${at}:${matched}`;
    if (tried.has(key)) return false;
    tried.add(key);
    const word = words[at];
    if (word === undefined) return false;
    if (isOption(word)) {
      return from(at + 1, matched) || (mayTakeValue(word) && from(at + 2, matched));
    }
    return (aliases.get(word) ?? word) === names[matched] && from(at + 1, matched + 1);
  };
  return from(0, 0);
}

/** `-c alias.p=push` (or `-calias.p=push`): `p` runs `push`. */
function aliasesIn(words: readonly string[]): Map<string, string> {
  const aliases = new Map<string, string>();
  for (const [at, word] of words.entries()) {
    const setting =
      word === "-c" ? words[at + 1] : word.startsWith("-c") ? word.slice(2) : undefined;
    const alias = /^alias\.([^=]+)=([^\s!]\S*)/u.exec(setting ?? "");
    if (alias?.[1] !== undefined && alias[2] !== undefined) aliases.set(alias[1], alias[2]);
  }
  return aliases;
}

function mayTakeValue(option: string): boolean {
  return !option.includes("=") && (isLong(option) || option.length === 2);
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

/**
 * Whether the command gives `option`: a long one by its name (`--force`, `--force=…`), a short
 * cluster by its letters among the command's clusters, whatever their case (`-rf` in `-v -Fr`).
 */
function hasOption(words: readonly string[], option: string): boolean {
  const options = words.filter(isOption);
  if (isLong(option)) {
    const name = option.split("=")[0] ?? option;
    return options.some((word) => (word.split("=")[0] ?? word) === name);
  }
  const letters = new Set<string>();
  for (const word of options) {
    if (!isLong(word)) for (const letter of word.slice(1).toLowerCase()) letters.add(letter);
  }
  return Array.from(option.slice(1).toLowerCase()).every((letter) => letters.has(letter));
}

/**
 * Configuration given on the command line, or another place to read it from, which may make any
 * word run anything: git's `-c`, `--config-env`, `--config`, and `-C`, `--git-dir`,
 * `--work-tree` and `--exec-path`, which point it at a repository (and its aliases) or programs
 * of the command's choosing.
 */
function setsConfiguration(word: string): boolean {
  const name = word.split("=")[0] ?? word;
  return CONFIGURING.has(name);
}

const CONFIGURING: ReadonlySet<string> = new Set([
  "-c",
  "-C",
  "--config",
  "--config-env",
  "--git-dir",
  "--work-tree",
  "--exec-path",
]);

/**
 * More words than a rule is read against: such a command naming a deny's program is denied, any
 * other is taken as one that may run what a rule names (asked, never allowed by a rule), and the
 * reading stays quick and shallow.
 */
export const MOST_WORDS_READ = 512;
