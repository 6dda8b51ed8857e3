/**
 * Git metadata that is not named `.git`: a bare repository (`server.git/`), the target of a
 * `gitdir:` file (`app/.git` holding `gitdir: ../app-gitdir`), a worktree's git dir. Git takes a
 * directory for a git dir by its layout, not its name (setup.c `is_git_directory`): a `HEAD`, and
 * `objects/` and `refs/` in it or in the directory its `commondir` file names. A hook or
 * `core.fsmonitor` planted in such a directory runs at the person's next git command there.
 */
import { closeSync, constants, lstatSync, readSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { childPath } from "./child-path.js";
import { errorCode } from "./fs-errors.js";
import { gitNameKey } from "./git-names.js";
import { openRegularFileSync } from "./safe-open.js";

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
 * Looks at every real directory from `root` down to the one that would hold the target (`segments`:
 * the target's real path below `root`, name by name): is it a git
 * dir already, or would writing `target` make it one (the write adds the missing `HEAD`,
 * `objects/`, `refs/` or `commondir`)? Either way a write there is git metadata. Entry names that
 * the write adds are compared as Windows and macOS would match them (any case, `HEAD.`, …).
 */
export function findGitLayout(
  root: string,
  segments: readonly string[],
): GitLayoutFinding | undefined {
  let directory = root;
  for (const child of segments) {
    const present = presentEntries(directory);
    if (hasGitDirectoryLayout(present)) return { kind: "is", directory };
    // A write at index creates `child` here only if it is missing; a deeper write creates a
    // directory named `child`, which counts for objects/ and refs/ as much as a file does.
    const key = gitNameKey(child);
    const added = GIT_LAYOUT_ENTRIES.find((entry) => entry.toLowerCase() === key);
    if (
      added !== undefined &&
      !present(added) &&
      hasGitDirectoryLayout((entry) => entry === added || present(entry))
    ) {
      return { kind: "would-become", directory };
    }
    directory = childPath(directory, child);
  }
  return undefined;
}

/**
 * Whether each of git's layout entries exists in `directory` (any type: a look-alike counts),
 * looked up only when asked and at most once: most directories have no `HEAD`, which settles them
 * with one lstat. Synchronous, like the rest of the write boundary: a few µs each.
 */
function presentEntries(directory: string): (entry: LayoutEntry) => boolean {
  const known = new Map<LayoutEntry, boolean>();
  return (entry) => {
    let found = known.get(entry);
    if (found === undefined) {
      found = exists(childPath(directory, entry));
      known.set(entry, found);
    }
    return found;
  };
}

function exists(path: string): boolean {
  try {
    // No exception is built for the usual answer, missing.
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch (error) {
    // `directory` itself does not exist yet (the write would create it) or is a file.
    if (errorCode(error) === "ENOTDIR") return false;
    throw error;
  }
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
    fd = openRegularFileSync(file, constants.O_RDONLY).handle;
  } catch {
    return undefined; // missing, a link, a FIFO, a directory: not a pointer git would follow
  }
  try {
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
