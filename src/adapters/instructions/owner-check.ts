/**
 * Above the workspace, instructions are read only from what the person (or root) owns: as git's
 * safe.directory refuses a repository owned by someone else, a shared machine's `/srv/.git` or
 * `/tmp/AGENTS.md` put there by another account must not steer the agent. Inside the workspace the
 * person chose the directory, so its files are theirs to judge.
 */
import { lstatSync } from "node:fs";

/** The uid that may own instruction files besides root; `undefined` where there are no uids (Windows). */
export function currentUid(): number | undefined {
  return typeof process.getuid === "function" ? process.getuid() : undefined;
}

/**
 * Why `path` (a directory, or the file opened) may not be trusted, or `undefined` when its owner
 * is the person or root. A path that cannot be looked at is left to the read, which says why.
 */
export function untrustedOwner(
  path: string,
  what: string,
  uid: number | undefined,
  knownOwner?: number,
): string | undefined {
  if (uid === undefined) return undefined;
  let owner = knownOwner;
  if (owner === undefined) {
    try {
      owner = lstatSync(path).uid;
    } catch {
      return undefined;
    }
  }
  return owner === uid || owner === 0
    ? undefined
    : `${what} is owned by uid ${String(owner)}, not by you or root`;
}
