/**
 * Where a `grep` that names a `path` searches: the path is checked as every file tool's is
 * (safePath: `invalid_path`, `path_escape`; then `file_not_found`), and given back as its real
 * path relative to the workspace, so the walk reaches it through real directories only. `""` is
 * the workspace itself.
 */
import { lstat } from "node:fs/promises";
import { relative, sep } from "node:path";
import { toWorkspaceError } from "./fs-errors.js";
import { safePath } from "./safe-path.js";

/** `root` must be the workspace's real path. */
export async function grepSearchRoot(root: string, path: string): Promise<string> {
  const target = await safePath(root, path);
  try {
    await lstat(target);
  } catch (error) {
    throw toWorkspaceError(error, path);
  }
  return relative(root, target).split(sep).join("/");
}
