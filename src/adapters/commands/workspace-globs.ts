/**
 * The folders npm's map-workspaces takes for the root package.json's `workspaces` patterns,
 * found as its glob finds them: only folders, `*` and `**` never match a name that starts with a
 * dot, and nothing in or below a `node_modules` counts. Only the patterns the harness can expand
 * exactly are taken: literal paths, and `*` or `**` as a whole segment (`packages/*`,
 * `apps/**`). Anything else (`pkg-*`, `{a,b}`, `?`, `!negated`, `..`) is refused, and so is
 * a symbolic link met on the way: npm's glob follows a link to a folder, whose target can change
 * after the approval while every name stays the same.
 */
import { lstatSync, readdirSync, type Stats } from "node:fs";
import { join } from "node:path";
import { firstLineOfError } from "../../core/common/one-line.js";
import { UnbindableCommandError } from "../../core/grants/unbindable-command.js";
import { errorCode } from "../filesystem/index.js";

/** Folders one binding looks at, at most: a `**` over a large tree is refused, not walked. */
const MAX_FOLDERS = 10_000;
/** Characters that make a glob segment more than a literal name or a whole `*` / `**`. */
const GLOB_MAGIC = /[*?[\]{}()!\\]/u;

/**
 * Each folder the patterns match (workspace-relative, `/`-separated), pattern by pattern, each
 * pattern's matches in the order npm sorts them, each folder once. Throws UnbindableCommandError
 * for a pattern or a folder tree the harness cannot expand as npm would.
 */
export function workspacePatternFolders(
  root: string,
  patterns: readonly string[],
): readonly string[] {
  const walk = new FolderWalk(root);
  const found = new Set<string>();
  for (const pattern of patterns) {
    const matches = walk.expand("", patternSegments(pattern));
    for (const folder of matches.sort((a, b) => a.localeCompare(b, "en"))) {
      if (folder === "") throw unexpandable(pattern, "it matches the root folder itself");
      found.add(folder);
    }
  }
  return [...found];
}

/** The pattern's segments as npm globs them (a leading `./` or `/` and a trailing `/` dropped). */
function patternSegments(pattern: string): readonly string[] {
  if (pattern.startsWith("!")) throw unexpandable(pattern, "it excludes folders");
  if (pattern.startsWith("#")) throw unexpandable(pattern, "glob reads it as a comment");
  const segments = pattern
    .replace(/^\.?\/+/u, "")
    .replace(/\/$/u, "")
    .split("/");
  for (const segment of segments) {
    if (segment === "*" || segment === "**") continue;
    if (segment === "" || segment === "." || segment === "..") {
      throw unexpandable(pattern, `its segment ${JSON.stringify(segment)} is not a folder's name`);
    }
    if (GLOB_MAGIC.test(segment)) {
      throw unexpandable(pattern, "only a literal name, `*` or `**` is expanded as a segment");
    }
  }
  return segments;
}

class FolderWalk {
  #looked = 0;
  constructor(readonly root: string) {}

  /** The folders below `base` that the remaining segments match. */
  expand(base: string, segments: readonly string[]): string[] {
    const [segment, ...rest] = segments;
    if (segment === undefined) return [base];
    if (segment === "**") {
      // Zero folders, or one more and `**` again.
      return [
        ...this.expand(base, rest),
        ...this.children(base).flatMap((child) => this.expand(child, segments)),
      ];
    }
    if (segment === "*") return this.children(base).flatMap((child) => this.expand(child, rest));
    const child = below(base, segment);
    return segment !== "node_modules" && this.isFolder(child) ? this.expand(child, rest) : [];
  }

  /** The folders in `base` a `*` matches: no dot name, no node_modules. */
  children(base: string): string[] {
    let names: string[];
    try {
      names = readdirSync(join(this.root, base));
    } catch (error) {
      throw unreadable(base, error);
    }
    return names
      .filter((name) => !name.startsWith(".") && name !== "node_modules")
      .map((name) => below(base, name))
      .filter((child) => this.isFolder(child));
  }

  /** Whether a folder is there; a link there is refused, whatever it leads to. */
  isFolder(folder: string): boolean {
    this.#looked += 1;
    if (this.#looked > MAX_FOLDERS) {
      throw new UnbindableCommandError(
        `the workspaces package.json names make npm look through more than ${String(MAX_FOLDERS)} folders, more than the harness reads to bind a command; name the workspace folders more narrowly`,
      );
    }
    let stats: Stats;
    try {
      stats = lstatSync(join(this.root, folder));
    } catch (error) {
      if (errorCode(error) === "ENOENT" || errorCode(error) === "ENOTDIR") return false;
      throw unreadable(folder, error);
    }
    if (stats.isSymbolicLink()) {
      throw new UnbindableCommandError(
        `npm would look for a workspace through ${folder}, a symbolic link, whose target can change after an approval without changing its name, so the harness does not bind it; make it a folder, or leave it out of package.json's workspaces`,
      );
    }
    return stats.isDirectory();
  }
}

function below(base: string, name: string): string {
  return base === "" ? name : `${base}/${name}`;
}

function unexpandable(pattern: string, why: string): UnbindableCommandError {
  return new UnbindableCommandError(
    `package.json's workspaces pattern ${JSON.stringify(pattern)} is not one the harness can expand as npm does (${why}), so it cannot say which workspace npm runs; list the folders, or use dir/* or dir/**`,
  );
}

function unreadable(folder: string, error: unknown): UnbindableCommandError {
  return new UnbindableCommandError(
    `npm would look for workspaces in ${folder === "" ? "the workspace" : folder}, which the harness cannot read to bind the command: ${firstLineOfError(error)}`,
  );
}
