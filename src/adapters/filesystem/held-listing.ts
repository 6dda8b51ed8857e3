/**
 * Lists a directory of the workspace without being led out of it. `readdir(path)` follows a link
 * wherever one is on the path, and a command left running can exchange a directory with a link
 * between the walk seeing a directory and listing it. On Linux the directory is opened first
 * (O_DIRECTORY|O_NOFOLLOW), listed through that descriptor (`/proc/self/fd/N`), and the kernel's
 * name for the descriptor must be the path the walk expects: a directory reached through a link
 * anywhere on the way is not listed. Elsewhere (no /proc) the path is listed as it is.
 *
 * Synchronous on purpose: four calls per directory through the thread pool cost twice the CPU of
 * one `readdir` (bench/glob-scale.ts), the same four made directly cost about a third more.
 */
import {
  closeSync,
  constants,
  existsSync,
  openSync,
  readdirSync,
  readlinkSync,
  type Dirent,
} from "node:fs";
import { O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } from "./fs-errors.js";

const OPEN_FLAGS = constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK;

/**
 * The entries of the directory at `path` (absolute, real, with or without a trailing separator),
 * or undefined when what is there now is not that directory (swapped for a link, or moved).
 * Platform errors (ENOENT, EACCES, ENOTDIR, ELOOP, …) are thrown as they are.
 */
export type ListDirectory = (path: string) => Dirent[] | undefined;

/** Decided once per walk: whether the descriptor can be listed through /proc. */
export function heldDirectoryLister(): ListDirectory {
  if (process.platform !== "linux" || !existsSync("/proc/self/fd")) {
    return (path) => readdirSync(path, { withFileTypes: true });
  }
  return (path) => {
    const fd = openSync(path, OPEN_FLAGS);
    try {
      const byDescriptor = `/proc/self/fd/${String(fd)}`;
      const entries = readdirSync(byDescriptor, { withFileTypes: true });
      // One readlink, not safe-open's isOpenedAt: that falls back to the path when /proc cannot
      // answer, which is exactly what this walk must not trust.
      return readlinkSync(byDescriptor) === withoutSeparator(path) ? entries : undefined;
    } finally {
      closeSync(fd);
    }
  };
}

function withoutSeparator(path: string): string {
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}
