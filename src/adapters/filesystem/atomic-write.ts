/**
 * Replaces a file so that a crash, a full disk or a swapped symlink can never leave it half written
 * or write through a link: the bytes go to a fresh temporary file beside the target, then `rename`
 * swaps the directory entry in one step (it replaces a link, it never follows one).
 */
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { access, lstat, rename, rm } from "node:fs/promises";
import { basename, dirname } from "node:path";
import {
  errorCode,
  isDirectory,
  notRegularFile,
  symlinkAtEnd,
  toWorkspaceError,
} from "./fs-errors.js";
import { openRegularFile } from "./safe-open.js";
import { realpathNative } from "./safe-path.js";
import { directoryChanged, holdDirectory } from "./write-directories.js";

const NEW_FILE_MODE = 0o666;

/**
 * `target` must be a real path already checked by `safePath` (no symlink in its directory part).
 * `path` is the model's text, used only in error messages. The directory is held open for the
 * whole write (held-directory.ts): the temporary file is made, and renamed, in that very
 * directory, so a directory on the way swapped for a link meanwhile moves nothing elsewhere.
 */
export async function writeFileAtomically(
  target: string,
  data: Uint8Array,
  path: string,
): Promise<void> {
  const directory = dirname(target);
  const held = holdDirectory(directory, path);
  try {
    const final = held.entry(basename(target));
    const existingMode = await modeOfExistingFile(final, path);
    await assertDirectoryUnchanged(directory, path);
    const temporary = held.entry(`.agent-write-${randomBytes(8).toString("hex")}.tmp`);
    try {
      // O_EXCL refuses any existing entry, a planted symlink included.
      const { handle } = await openRegularFile(
        temporary,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
        { mode: existingMode ?? NEW_FILE_MODE },
      );
      try {
        await handle.writeFile(data);
        // chmod, not the open mode: the umask must not narrow an existing file's permissions.
        if (existingMode !== undefined) await handle.chmod(existingMode);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await modeOfExistingFile(final, path);
      await assertDirectoryUnchanged(directory, path);
      await rename(temporary, final);
    } catch (error) {
      await rm(temporary, { force: true });
      throw toWorkspaceError(error, path);
    }
  } finally {
    held.close();
  }
}

/** The permission bits to keep (rwx only), or `undefined` for a new file. Refuses links and non-files. */
async function modeOfExistingFile(target: string, path: string): Promise<number | undefined> {
  let stats;
  try {
    stats = await lstat(target);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined;
    throw toWorkspaceError(error, path);
  }
  // `safePath` returned a real path, so a link here was swapped in after the check.
  if (stats.isSymbolicLink()) throw symlinkAtEnd(path);
  if (stats.isDirectory()) throw isDirectory(path);
  if (!stats.isFile()) throw notRegularFile(path);
  // rename would replace a read-only file the user could not write in place: refuse (EACCES).
  await access(target, constants.W_OK).catch((error: unknown) => {
    throw toWorkspaceError(error, path);
  });
  // The permission bits only: new content under a kept setuid/setgid bit would be a privileged
  // program the model wrote (the sandbox's seccomp filter refuses such bits; so do the file tools).
  return stats.mode & 0o777;
}

/** A parent directory replaced by a link after the check would move the write elsewhere. */
async function assertDirectoryUnchanged(directory: string, path: string): Promise<void> {
  let current: string;
  try {
    current = await realpathNative(directory);
  } catch (error) {
    throw toWorkspaceError(error, path);
  }
  if (current !== directory) throw directoryChanged(path);
}
