/**
 * How the file tools and `/undo` open a file the boundary resolved, to read it: one place, so a
 * read can never be less careful on one path than on another.
 */
import { constants } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { WorkspaceFileError } from "../../core/ports/filesystem.js";
import {
  hardLinked,
  isDirectory,
  notRegularFile,
  symlinkAtEnd,
  toWorkspaceError,
} from "./fs-errors.js";
import { isOpenedAt, openRegularFile, UnsafeFileError } from "./safe-open.js";

export interface ReadOpenOptions {
  /**
   * Refuse a file with more than one name. A read shown to the model needs it: through a hard
   * link made before the run, it would be of a file outside the workspace. A before-image does
   * not: its bytes only ever go back to the name they came from.
   */
  readonly oneName: boolean;
}

/**
 * `target` (a real path the boundary returned) opened read-only; `path` is the name the caller
 * was given, for the error. A missing file is `file_not_found`.
 */
export async function openCheckedForReading(
  target: string,
  path: string,
  options: ReadOpenOptions,
): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    // The boundary returned a real path, so a link here was swapped in after the check.
    handle = (await openRegularFile(target, constants.O_RDONLY, { oneName: options.oneName }))
      .handle;
  } catch (error) {
    if (!(error instanceof UnsafeFileError)) throw toWorkspaceError(error, path);
    switch (error.unsafe.kind) {
      case "symbolic-link":
        throw symlinkAtEnd(path);
      case "not-regular":
        throw error.unsafe.type === "directory" ? isDirectory(path) : notRegularFile(path);
      case "hard-links":
        throw hardLinked(path, error.unsafe.links);
    }
  }
  // O_NOFOLLOW covers the last name only: a directory on the way swapped for a link after the
  // check would have the file read from outside the workspace.
  if (!isOpenedAt(handle.fd, target)) {
    await handle.close();
    throw new WorkspaceFileError("path_escape", `the path changed while reading: ${path}`);
  }
  return handle;
}
