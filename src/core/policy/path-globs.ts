/**
 * How a person's path rule names workspace paths (personal-rules.ts), in one small module that
 * the search walks (grep's worker, glob) share without the rest of the policy.
 */
import { nameKey } from "../common/name-key.js";

/**
 * `*` and `?` within a name, `**` across names; everything else literal. A final `/**` also
 * names the folder itself (`secrets/**` is `secrets` and all it holds).
 */
export function globToRegExp(glob: string): RegExp {
  let source = "";
  for (let index = 0; index < glob.length; index += 1) {
    const character = glob[index] ?? "";
    if (character === "/" && index === glob.length - 3 && glob.endsWith("/**")) {
      source += "(?:/.*)?";
      break;
    }
    if (character === "*" && glob[index + 1] === "*") {
      const slash = glob[index + 2] === "/";
      source += slash ? "(?:.*/)?" : ".*";
      index += slash ? 2 : 1;
    } else if (character === "*") source += "[^/]*";
    else if (character === "?") source += "[^/]";
    else source += character.replace(/[.+^${}()|[\]\\/]/gu, "\\$&");
  }
  return new RegExp(`^${source}$`, "u");
}

/**
 * A path name by name as a case-blind filesystem may take it (name-key.ts): on macOS or Windows
 * `Secrets/KEY.txt`, `secrets./key.txt` and `secrets/key.txt` are one file.
 */
function foldedPath(path: string): string {
  return path.split("/").map(nameKey).join("/");
}

/**
 * A deny's or ask's glob, matched generously: a path as written, or as a filesystem the
 * workspace may sit on spells it (folded on both sides). Either names it: folding alone would
 * lose `?` against a name whose folded form is longer (`stra?e` and `straße`). Over-matching
 * costs a refusal or a question; an allow is matched exactly (`globToRegExp`), as folding it
 * would cover files nobody named.
 */
export class GenerousGlob {
  readonly #exact: RegExp;
  readonly #folded: RegExp;

  constructor(glob: string) {
    this.#exact = globToRegExp(glob);
    this.#folded = globToRegExp(foldedPath(glob));
  }

  /** Whether it names `path` itself. */
  names(path: string): boolean {
    return this.#exact.test(path) || this.#folded.test(foldedPath(path));
  }

  /** Whether it names `path` or a folder it lies in (`secrets` covers `secrets/key.txt`). */
  namesPathOrFolder(path: string): boolean {
    const names = path.split("/");
    return names.some((_, index) => this.names(names.slice(0, index + 1).join("/")));
  }
}

/**
 * What a search walk skips before it opens anything: each entry `globs` (a person's deny and ask
 * path rules) name, however its name is spelt. The walk goes down from the top and never enters a
 * folder it skips, so an entry's folders were tested already as the walk met them; only the entry
 * itself is.
 */
export function withheldPaths(globs: readonly string[]): (path: string) => boolean {
  const patterns = globs.map((glob) => new GenerousGlob(glob));
  return (path) => patterns.some((pattern) => pattern.names(path));
}
