/**
 * Git metadata that is not named `.git`: a bare repository (`server.git/`), the target of a
 * `gitdir:` file (`app/.git` holding `gitdir: ../app-gitdir`), a worktree's git dir. Git takes a
 * directory for a git dir by its layout, not its name (setup.c `is_git_directory`): a `HEAD`, and
 * `objects/` and `refs/` in it or in the directory its `commondir` file names. A hook or
 * `core.fsmonitor` planted in such a directory runs at the person's next git command there.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { lstat } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { O_NOFOLLOW, O_NONBLOCK, errorCode } from "./fs-errors.js";
import { gitNameKey } from "./git-names.js";

/** The entries git looks for; `commondir` stands in for `objects` and `refs` (a worktree). */
export const GIT_LAYOUT_ENTRIES = ["HEAD", "objects", "refs", "commondir"] as const;
type LayoutEntry = (typeof GIT_LAYOUT_ENTRIES)[number];

/**
 * Whether a directory holding these entries is a git dir to git. HEAD's content is not checked
 * (git would also need it to be a valid ref): a look-alike is protected too, which costs nothing.
 */
export function hasGitDirectoryLayout(has: (entry: LayoutEntry) => boolean): boolean {
  return has("HEAD") && (has("commondir") || (has("objects") && has("refs")));
}

export type GitLayoutFinding =
  | { readonly kind: "is"; readonly directory: string }
  | { readonly kind: "would-become"; readonly directory: string };

/**
 * Looks at every real directory from `root` down to the one that would hold `target`: is it a git
 * dir already, or would writing `target` make it one (the write adds the missing `HEAD`,
 * `objects/`, `refs/` or `commondir`)? Either way a write there is git metadata. Entry names that
 * the write adds are compared as Windows and macOS would match them (any case, `HEAD.`, …).
 */
export async function findGitLayout(
  root: string,
  target: string,
): Promise<GitLayoutFinding | undefined> {
  const segments = relative(root, target)
    .split(sep)
    .filter((part) => part !== "");
  let directory = root;
  for (const child of segments) {
    const present = await presentEntries(directory);
    if (hasGitDirectoryLayout((entry) => present.has(entry))) return { kind: "is", directory };
    // A write at index creates `child` here only if it is missing; a deeper write creates a
    // directory named `child`, which counts for objects/ and refs/ as much as a file does.
    const key = gitNameKey(child);
    const added = GIT_LAYOUT_ENTRIES.find((entry) => entry.toLowerCase() === key);
    if (
      added !== undefined &&
      !present.has(added) &&
      hasGitDirectoryLayout((entry) => present.has(entry) || entry === added)
    ) {
      return { kind: "would-become", directory };
    }
    directory = join(directory, child);
  }
  return undefined;
}

/** Which of git's layout entries exist in `directory` (any type: a look-alike counts). */
async function presentEntries(directory: string): Promise<Set<LayoutEntry>> {
  const present = new Set<LayoutEntry>();
  for (const entry of GIT_LAYOUT_ENTRIES) {
    try {
      await lstat(join(directory, entry));
      present.add(entry);
    } catch (error) {
      const code = errorCode(error);
      // Missing, or `directory` itself does not exist yet (the write would create it).
      if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
    }
  }
  return present;
}

/** A `gitdir:` file is a line of text; anything longer is not one git would follow. */
const GITDIR_FILE_LIMIT = 4096;

/**
 * The directory a `.git` file (`gitdir: ../app-gitdir`) or a `commondir` file names, as an
 * absolute path resolved against the directory that holds the file (git's own rule for relative
 * paths), or undefined when the file is not a regular file or says nothing usable. Synchronous,
 * for the sandbox's per-command scan; never blocks on a FIFO and never follows a final link.
 */
export function pointerFileTarget(file: string, prefix: "gitdir: " | ""): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    const buffer = Buffer.alloc(GITDIR_FILE_LIMIT);
    const read = readSync(fd, buffer, 0, GITDIR_FILE_LIMIT, 0);
    const line = buffer.toString("utf8", 0, read).split(/\r?\n/u, 1)[0] ?? "";
    if (!line.startsWith(prefix)) return undefined;
    const named = line.slice(prefix.length).trim();
    return named === "" ? undefined : resolve(dirname(file), named);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
