/**
 * Names that Windows, macOS or git itself resolve to the `.git` directory. Anything that decides
 * about `.git` (glob's exclusion, the file tools' protected_path, the sandbox's read-only binds)
 * asks this instead of comparing to ".git".
 */
import { nameKey } from "../../core/common/name-key.js";

// The NTFS 8.3 short name of `.git` (`GIT~1`, or a later number when the first is taken).
const SHORT_NAME = /^git~[1-9][0-9]*$/u;

export function isGitDirectoryName(name: string): boolean {
  if (!mayNameGit(name)) return false;
  const folded = gitNameKey(name);
  return folded === ".git" || SHORT_NAME.test(folded);
}

/**
 * A name the way Windows or macOS would match it (core/common/name-key.ts): stream suffix,
 * HFS-ignorable code points and trailing dots and spaces dropped, case folded. `HE\u200CAD.` is
 * `head`, `.gıt` is `.git`.
 */
export function gitNameKey(name: string): string {
  return nameKey(name);
}

const DOT = 0x2e;
const LOWER_G = 0x67;
const UPPER_G = 0x47;
const LOWER_I = 0x69;
const UPPER_I = 0x49;
/** `ı`, the dotless i, which NTFS's upper-case table takes to `I`. */
const DOTLESS_I = 0x131;
/** `İ`, which lower-cases to `i` and a combining dot. */
const DOTTED_CAPITAL_I = 0x130;
/** The lowest HFS-ignorable code point: every one of them is at or above it. */
const FIRST_IGNORABLE = 0x200c;

/**
 * A two-character pre-check, run on every entry glob sees: false only for names that
 * cannot mean `.git`. Every alias, once HFS-ignorable code points are dropped and it is lower-cased,
 * starts with `.g` (`.git…`) or `gi` (`git~1`). Below U+200C only `G` lower-cases to `g`, and only
 * `I`, `İ` and `ı` to something starting with `i`; an ignorable code point may stand anywhere.
 */
function mayNameGit(name: string): boolean {
  const first = name.charCodeAt(0);
  if (first >= FIRST_IGNORABLE) return true;
  const second = name.charCodeAt(1);
  if (second >= FIRST_IGNORABLE) return first === DOT || first === LOWER_G || first === UPPER_G;
  if (first === DOT) return second === LOWER_G || second === UPPER_G;
  if (first === LOWER_G || first === UPPER_G) {
    return (
      second === LOWER_I ||
      second === UPPER_I ||
      second === DOTTED_CAPITAL_I ||
      second === DOTLESS_I
    );
  }
  return false;
}
