/**
 * Walks the workspace for a glob. It never follows a symlinked directory (so link loops cannot
 * trap it), never enters or lists `.git` under any of its aliases, and prunes every directory the
 * pattern cannot match below, so a pattern that starts with `src/` reads only `src`.
 */
import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { GlobResult } from "../../core/filesystem.js";
import { isGitDirectoryName } from "./git-names.js";
import type { GlobPattern, GlobState } from "./glob-pattern.js";

/** Directory reads in flight at once: enough to hide latency, few enough to share two cores. */
const CONCURRENT_READS = 8;

interface PendingDirectory {
  readonly absolute: string;
  /** Workspace-relative with `/`; "" for the root. */
  readonly relative: string;
  readonly state: GlobState;
}

/** `root` must be the workspace's real path. Lists files and symlinks; directories are walked. */
export async function globWorkspace(
  root: string,
  pattern: GlobPattern,
  maxResults: number,
): Promise<GlobResult> {
  const matches: string[] = [];
  const visit = async (directory: PendingDirectory): Promise<PendingDirectory[]> => {
    const entries = await readEntries(directory);
    const below: PendingDirectory[] = [];
    for (const entry of entries) {
      if (isGitDirectoryName(entry.name)) continue;
      const state = pattern.step(directory.state, entry.name);
      if (state.length === 0) continue;
      const relative =
        directory.relative === "" ? entry.name : `${directory.relative}/${entry.name}`;
      // Dirent types come from lstat semantics: a symlinked directory is a link, not a directory.
      if (entry.isDirectory()) {
        if (pattern.canMatchBelow(state)) {
          below.push({ absolute: join(directory.absolute, entry.name), relative, state });
        }
      } else if (pattern.accepts(state)) {
        matches.push(relative);
      }
    }
    return below;
  };
  await walk({ absolute: root, relative: "", state: pattern.initial }, visit);
  // Code-unit order: the same on every machine, unlike a locale-aware sort.
  matches.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    paths: matches.slice(0, maxResults),
    omitted: Math.max(0, matches.length - maxResults),
  };
}

async function readEntries(directory: PendingDirectory): Promise<Dirent[]> {
  try {
    return await readdir(directory.absolute, { withFileTypes: true });
  } catch (error) {
    // The root must be readable; a subdirectory that vanished or is unreadable is skipped.
    if (directory.relative === "") throw error;
    return [];
  }
}

function walk(
  start: PendingDirectory,
  visit: (directory: PendingDirectory) => Promise<PendingDirectory[]>,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const queue: PendingDirectory[] = [start];
    let active = 0;
    let failed = false;
    const pump = (): void => {
      while (!failed && active < CONCURRENT_READS) {
        const next = queue.pop();
        if (next === undefined) break;
        active += 1;
        visit(next).then(
          (below) => {
            active -= 1;
            for (const directory of below) queue.push(directory);
            if (active === 0 && queue.length === 0) resolve();
            else pump();
          },
          (error: unknown) => {
            failed = true;
            reject(error instanceof Error ? error : new Error(String(error)));
          },
        );
      }
    };
    pump();
  });
}
