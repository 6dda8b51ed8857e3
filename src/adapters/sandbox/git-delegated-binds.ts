/**
 * The git delegation rule in the sandbox: worktree files git runs or reads as config
 * (filesystem's git-delegated-paths.ts) are bound read-only like `.git`, so a command cannot
 * plant a hook in `.husky/` or a `lefthook-local.yml` that runs on the host at the next commit.
 *
 * A bind needs something to mount on, and bwrap would create a missing target in the writable
 * workspace, on the host. So a missing delegated path is covered by its nearest existing
 * directory strictly inside the workspace (a missing `scripts/fsmonitor.sh` makes `scripts/`
 * read-only). One whose nearest directory is the workspace itself (a `lefthook-local.yml` not
 * yet made, at the root) is returned apart: the runner holds it with an empty read-only
 * placeholder for the command (absent-placeholders.ts).
 */
import { lstatSync } from "node:fs";
import path from "node:path";
import {
  gitDelegatedPaths,
  gitDelegatedPathsAround,
  isGitDirectoryName,
  isWithinRoot,
  repositoryAt,
  type GitDelegatedPath,
  type GitRepositoryLocation,
} from "../filesystem/index.js";

/** What the sandbox does for the delegated paths of one command. */
export interface GitDelegatedCoverage {
  /** Real paths to bind read-only. */
  readonly binds: readonly string[];
  /** Delegated paths not made yet whose nearest existing directory is the workspace itself. */
  readonly absentAtRoot: readonly string[];
}

/**
 * What to bind read-only for the repositories around the workspace and the git metadata the
 * scan found inside it (`.git` entries and directories laid out as git dirs), and what cannot be
 * bound because it does not exist yet, right in the workspace.
 */
export function gitDelegatedBinds(
  workspace: string,
  gitMetadata: readonly string[],
): GitDelegatedCoverage {
  const delegated: GitDelegatedPath[] = gitDelegatedPathsAround(workspace);
  for (const found of gitMetadata) {
    const repository: GitRepositoryLocation | undefined = isGitDirectoryName(path.basename(found))
      ? repositoryAt(found)
      : { gitDir: found, worktree: undefined };
    if (repository !== undefined) delegated.push(...gitDelegatedPaths(repository));
  }
  const binds = new Set<string>();
  const absentAtRoot = new Set<string>();
  for (const { path: target } of delegated) {
    // A delegated directory that holds the workspace: all of it is git's (hooksPath = ".").
    if (isWithinRoot(target, workspace)) return { binds: [workspace], absentAtRoot: [] };
    if (!isWithinRoot(workspace, target)) continue;
    const existing = nearestExisting(target, workspace);
    if (existing === "workspace") absentAtRoot.add(target);
    else if (existing !== undefined) binds.add(existing);
  }
  return { binds: [...binds], absentAtRoot: [...absentAtRoot] };
}

/**
 * `target` if it is a file or directory, else its nearest existing directory below `workspace`;
 * `"workspace"` when nothing on the way exists; undefined for a link (never bound).
 */
function nearestExisting(target: string, workspace: string): string | undefined {
  for (let current = target; current !== workspace; current = path.dirname(current)) {
    let stats;
    try {
      stats = lstatSync(current, { throwIfNoEntry: false });
    } catch {
      stats = undefined; // a file on the way (ENOTDIR): the nearer directory decides
    }
    if (stats === undefined) continue;
    // A link is never bound (the mount would follow it); its own real path was checked already.
    return stats.isFile() || stats.isDirectory() ? current : undefined;
  }
  return "workspace";
}
