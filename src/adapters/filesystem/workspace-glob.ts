/**
 * Walks the workspace for a glob. It never follows a symlinked directory (so link loops cannot
 * trap it), never enters or lists `.git` under any of its aliases, and prunes every directory the
 * pattern cannot match below, so a pattern that starts with `src/` reads only `src`. A
 * `node_modules` directory is entered only when the pattern names it: otherwise a project's
 * dependencies fill the 1000 paths and its own files are never shown.
 *
 * Built for speed (issue 19): callback `readdir` with file types, every directory read in flight
 * at once (the thread pool is the real cap), paths joined by concatenation, and the `.git` name
 * test (a one-character pre-check for most names).
 */
import { readdir, type Dirent } from "node:fs";
import { sep } from "node:path";
import type { GlobResult } from "../../core/filesystem.js";
import { isGitDirectoryName } from "./git-names.js";
import type { GlobPattern, GlobState } from "./glob-pattern.js";

const DEPENDENCY_DIRECTORY = "node_modules";

/** `root` must be the workspace's real path. Lists files and symlinks; directories are walked. */
export function globWorkspace(
  root: string,
  pattern: GlobPattern,
  maxResults: number,
): Promise<GlobResult> {
  return new Promise((resolve, reject) => {
    const matches: string[] = [];
    const searchesDependencies = pattern.namesLiterally(DEPENDENCY_DIRECTORY);
    let unsearched = 0;
    let pending = 0;
    let failed = false;

    const finish = (): void => {
      // Code-unit order: the same on every machine, unlike a locale-aware sort. (The default
      // sort compares UTF-16 code units.)
      matches.sort();
      resolve({
        paths: matches.length > maxResults ? matches.slice(0, maxResults) : matches,
        omitted: Math.max(0, matches.length - maxResults),
        ...(unsearched === 0 ? {} : { unsearchedDependencyDirectories: unsearched }),
      });
    };

    /** `prefix` is the directory's absolute path with a trailing separator. */
    const read = (prefix: string, relative: string, state: GlobState): void => {
      pending += 1;
      readdir(prefix, { withFileTypes: true }, (error, entries) => {
        pending -= 1;
        if (failed) return;
        if (error !== null) {
          // The root must be readable; a subdirectory that vanished or is unreadable is skipped.
          if (relative === "") {
            failed = true;
            reject(error);
            return;
          }
        } else {
          visit(prefix, relative, state, entries);
        }
        if (pending === 0) finish();
      });
    };

    const visit = (
      prefix: string,
      relative: string,
      state: GlobState,
      entries: readonly Dirent[],
    ): void => {
      const base = relative === "" ? "" : `${relative}/`;
      for (const entry of entries) {
        const name = entry.name;
        if (isGitDirectoryName(name)) continue;
        const next = pattern.step(state, name);
        if (next.length === 0) continue;
        // Dirent types come from lstat semantics: a symlinked directory is a link, not a directory.
        if (entry.isDirectory()) {
          if (!pattern.canMatchBelow(next)) continue;
          if (name === DEPENDENCY_DIRECTORY && !searchesDependencies) unsearched += 1;
          else read(prefix + name + sep, base + name, next);
        } else if (pattern.accepts(next)) {
          matches.push(base + name);
        }
      }
    };

    read(root.endsWith(sep) ? root : root + sep, "", pattern.initial);
  });
}
