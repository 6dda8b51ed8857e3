/** Platform errors (ENOENT, EISDIR, ELOOP, …) turned into errors the model can act on. */
import { constants } from "node:fs";
import { WorkspaceFileError } from "../../core/ports/filesystem.js";

/**
 * Refuses to open a symlink at the final component. Windows has no O_NOFOLLOW (0 there); callers
 * also `lstat` first so the check holds on every platform.
 */
export const O_NOFOLLOW: number = "O_NOFOLLOW" in constants ? constants.O_NOFOLLOW : 0;
/** Opening a FIFO for reading would block until a writer appears; this makes it return at once. */
export const O_NONBLOCK: number = "O_NONBLOCK" in constants ? constants.O_NONBLOCK : 0;
/** Open only a directory: anything else put at the name fails with ENOTDIR. (Not on Windows.) */
export const O_DIRECTORY: number = "O_DIRECTORY" in constants ? constants.O_DIRECTORY : 0;

export function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  return typeof error.code === "string" ? error.code : undefined;
}

/** The domain error for a platform error, or the error itself when it has no stable meaning. */
export function toWorkspaceError(error: unknown, path: string): unknown {
  // Already in the model's terms (a check inside the same try): its code is not a platform's.
  if (error instanceof WorkspaceFileError) return error;
  switch (errorCode(error)) {
    case "ENOENT":
      return new WorkspaceFileError("file_not_found", `file not found: ${path}`);
    case "EISDIR":
      return isDirectory(path);
    case "ENOTDIR":
      return parentNotDirectory(path);
    case "ENAMETOOLONG":
      return pathTooLong(path);
    case "ENXIO":
    case "ENODEV":
      // Opening a socket (or a device with nothing behind it) fails like this on Linux.
      return notRegularFile(path);
    case "ELOOP":
      // With O_NOFOLLOW this means the final component became a symlink after the check.
      return symlinkAtEnd(path);
    case undefined:
      return error;
    default:
      return withoutHostPath(error, path);
  }
}

/**
 * A system error with no domain meaning (EACCES, EROFS, ENOSPC, …) stays a tool failure, but its
 * message names the path as the model gave it: Node's own text would show the absolute host path.
 */
function withoutHostPath(error: unknown, path: string): Error {
  const code = errorCode(error) ?? "EUNKNOWN";
  const message = error instanceof Error ? error.message : "";
  const detail = /^[A-Z0-9]+: ([^,]+)/.exec(message)?.[1];
  const text = detail === undefined ? `${code}: ${path}` : `${code}: ${detail}: ${path}`;
  return Object.assign(new Error(text), { code });
}

export function isDirectory(path: string): WorkspaceFileError {
  return new WorkspaceFileError("is_directory", `${path} is a directory, not a file`);
}

/** ENAMETOOLONG: the platform's own message would show the model the absolute host path. */
export function pathTooLong(path: string): WorkspaceFileError {
  return new WorkspaceFileError("invalid_path", `path is too long: ${path}`);
}

export function symlinkAtEnd(path: string): WorkspaceFileError {
  return new WorkspaceFileError(
    "path_escape",
    `path ends in a symbolic link that is not followed here: ${path}`,
  );
}

export function notRegularFile(path: string): WorkspaceFileError {
  return new WorkspaceFileError("invalid_path", `${path} is not a regular file`);
}

export function parentNotDirectory(path: string): WorkspaceFileError {
  return new WorkspaceFileError("invalid_path", `a parent of ${path} is not a directory`);
}

/**
 * A regular file with more than one name: another name may be outside the workspace (a hard link
 * made before the run), and the names of a file cannot be listed cheaply, so read_file and
 * edit_file (which reads first) refuse it, wherever its other names are. write_file replaces the
 * name by a rename, which never writes through the link, so it stays allowed.
 */
export function hardLinked(path: string, links: number): WorkspaceFileError {
  return new WorkspaceFileError(
    "hard_link",
    `${path} has ${String(links)} hard links; another name for the same file may be outside the ` +
      `workspace, so the file tools do not read or edit a file with more than one name. ` +
      `write_file replaces the name with a new file of its own`,
  );
}
