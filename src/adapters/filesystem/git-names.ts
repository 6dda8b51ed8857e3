/**
 * Names that Windows, macOS or git itself resolve to the `.git` directory. Anything that decides
 * about `.git` (glob's exclusion, the file tools' protected_path, the sandbox's read-only binds)
 * asks this instead of comparing to ".git".
 */

// HFS+ ignores these code points when comparing names, so `.g\u200Cit` is `.git` on a Mac.
const HFS_IGNORABLE = /[\u200C-\u200F\u202A-\u202E\u206A-\u206F\uFEFF]/gu;
// The NTFS 8.3 short name of `.git` (`GIT~1`, or a later number when the first is taken).
const SHORT_NAME = /^git~[1-9][0-9]*$/u;

export function isGitDirectoryName(name: string): boolean {
  if (!mayNameGit(name)) return false;
  const folded = gitNameKey(name);
  return folded === ".git" || SHORT_NAME.test(folded);
}

/**
 * A name the way Windows or macOS would match it: stream suffix, HFS-ignorable code points and
 * trailing dots and spaces dropped, lower case. `HE\u200CAD.` is `head`.
 */
export function gitNameKey(name: string): string {
  // `.git::$INDEX_ALLOCATION` and `.git:$I30:$INDEX_ALLOCATION` name the directory's stream.
  const beforeStream = name.split(":", 1)[0] ?? "";
  const visible = beforeStream.replace(HFS_IGNORABLE, "");
  // Windows drops trailing dots and spaces, so `.git.` and `.git ` are `.git`.
  const stripped = visible.replace(/[. ]+$/u, "");
  return stripped.toLowerCase();
}

const DOT = 0x2e;
const LOWER_G = 0x67;
const UPPER_G = 0x47;
const LOWER_I = 0x69;
const UPPER_I = 0x49;
/** `İ`, which lower-cases to `i` and a combining dot. */
const DOTTED_CAPITAL_I = 0x130;
/** The lowest HFS-ignorable code point: every one of them is at or above it. */
const FIRST_IGNORABLE = 0x200c;

/**
 * A two-character pre-check, run on every entry glob sees: false only for names that
 * cannot mean `.git`. Every alias, once HFS-ignorable code points are dropped and it is lower-cased,
 * starts with `.g` (`.git…`) or `gi` (`git~1`). Below U+200C only `G` lower-cases to `g`, and only
 * `I` and `İ` to something starting with `i`; an ignorable code point may stand anywhere.
 */
function mayNameGit(name: string): boolean {
  const first = name.charCodeAt(0);
  if (first >= FIRST_IGNORABLE) return true;
  const second = name.charCodeAt(1);
  if (second >= FIRST_IGNORABLE) return first === DOT || first === LOWER_G || first === UPPER_G;
  if (first === DOT) return second === LOWER_G || second === UPPER_G;
  if (first === LOWER_G || first === UPPER_G) {
    return second === LOWER_I || second === UPPER_I || second === DOTTED_CAPITAL_I;
  }
  return false;
}
