/**
 * The one way this adapter opens a file it does not fully control (a workspace file the tools
 * read, a harness file a command could have swapped, a saved output): never through a symbolic
 * link at the last component, never blocking on a FIFO, and keeping the descriptor only when
 * fstat on it says it is a regular file. Reads through it are bounded. Callers turn the refusal
 * (`UnsafeFileError`) and the platform's own errors into their own messages.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  realpathSync,
  type Stats,
} from "node:fs";
import { lstat, open, type FileHandle } from "node:fs/promises";
import { O_NOFOLLOW, O_NONBLOCK } from "./fs-errors.js";

/** What was found instead of a usable regular file. */
export type UnsafeFile =
  | { readonly kind: "symbolic-link" }
  | { readonly kind: "not-regular"; readonly type: NonRegularType }
  | { readonly kind: "hard-links"; readonly links: number };

export type NonRegularType = "directory" | "FIFO" | "socket" | "device" | "other";

export class UnsafeFileError extends Error {
  override readonly name = "UnsafeFileError";
  constructor(readonly unsafe: UnsafeFile) {
    super(
      unsafe.kind === "symbolic-link"
        ? "it is a symbolic link"
        : unsafe.kind === "hard-links"
          ? `it has ${String(unsafe.links)} hard links`
          : `it is not a regular file (${unsafe.type})`,
    );
  }
}

export interface SafeOpenOptions {
  /** Mode for a file O_CREAT makes. */
  readonly mode?: number;
  /**
   * Refuse a file with a second hard link: another name (planted by a command) could change what
   * the harness writes, or read it.
   */
  readonly oneName?: boolean;
}

export interface OpenedFile<Handle> {
  readonly handle: Handle;
  readonly stats: Stats;
}

/**
 * Opens `path` with `flags` plus O_NOFOLLOW|O_NONBLOCK. O_NONBLOCK makes a FIFO fail or return at
 * once instead of waiting for its other end; fstat then refuses it. On a regular file O_NONBLOCK
 * changes nothing, so it stays set. Platform errors (ENOENT, ELOOP, ENXIO, EEXIST, …) are thrown
 * as they are.
 */
export function openRegularFileSync(
  path: string,
  flags: number,
  options: SafeOpenOptions = {},
): OpenedFile<number> {
  refuseLinkByNameSync(path, flags);
  const fd = openSync(path, flags | O_NOFOLLOW | O_NONBLOCK, options.mode);
  try {
    return { handle: fd, stats: requireUsable(fstatSync(fd), options) };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** `openRegularFileSync` for `fs/promises`. */
export async function openRegularFile(
  path: string,
  flags: number,
  options: SafeOpenOptions = {},
): Promise<OpenedFile<FileHandle>> {
  if (checksLinkByName(flags)) refuseByName(await lstat(path).catch(() => undefined));
  const handle = await open(path, flags | O_NOFOLLOW | O_NONBLOCK, options.mode);
  try {
    return { handle, stats: requireUsable(await handle.stat(), options) };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Whether the descriptor holds what is at `path` now, reached through real directories only:
 * Linux names the file a descriptor holds in /proc; elsewhere the path's real path is checked
 * again (which narrows a swap of a directory on the way, not closes it).
 */
export function isOpenedAt(fd: number, path: string): boolean {
  try {
    return realpathSync.native(`/proc/self/fd/${String(fd)}`) === path;
  } catch {
    try {
      return realpathSync.native(path) === path;
    } catch {
      return false;
    }
  }
}

/** What a non-regular file is, in the words the messages use. */
export function nonRegularType(stats: Stats): NonRegularType {
  if (stats.isDirectory()) return "directory";
  if (stats.isFIFO()) return "FIFO";
  if (stats.isSocket()) return "socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "device";
  return "other";
}

const FIRST_CHUNK_BYTES = 64 * 1024;
const LARGEST_CHUNK_BYTES = 4 * 1024 * 1024;

/**
 * The rest of the file from the current position, only if it fits in `maxBytes`; `undefined`
 * when it does not. Memory grows with what is really there (chunks that double from 64 KiB), never
 * to the limit up front, and reading stops one chunk past the limit: a file that grows while it is
 * read (or never ends, like /dev/zero) cannot exhaust memory. `expectedBytes` (what fstat said)
 * makes the first chunk that size, so a file that did not grow is read in one piece and not copied
 * again (a long run's 2 MiB journal took eight reads and a copy).
 */
export function readAtMostSync(
  fd: number,
  maxBytes: number,
  expectedBytes?: number,
): Buffer | undefined {
  const chunks: Buffer[] = [];
  let total = 0;
  // One past the expected size: the read after it, which finds the end, is a small chunk.
  let size = expectedBytes === undefined ? FIRST_CHUNK_BYTES : expectedBytes + 1;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(size, maxBytes - total + 1));
    const read = readSync(fd, chunk, 0, chunk.length, null);
    if (read === 0) {
      const [only] = chunks;
      return only !== undefined && chunks.length === 1 ? only : Buffer.concat(chunks, total);
    }
    total += read;
    if (total > maxBytes) return undefined;
    chunks.push(chunk.subarray(0, read));
    size =
      chunks.length === 1 && expectedBytes !== undefined
        ? FIRST_CHUNK_BYTES
        : Math.min(size * 2, LARGEST_CHUNK_BYTES);
  }
}

/** `readAtMostSync` for an open `FileHandle`. */
export async function readAtMost(
  handle: FileHandle,
  maxBytes: number,
): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (let size = FIRST_CHUNK_BYTES; ; size = Math.min(size * 2, LARGEST_CHUNK_BYTES)) {
    const chunk = Buffer.allocUnsafe(Math.min(size, maxBytes - total + 1));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
    if (bytesRead === 0) return Buffer.concat(chunks, total);
    total += bytesRead;
    if (total > maxBytes) return undefined;
    chunks.push(chunk.subarray(0, bytesRead));
  }
}

/**
 * Windows has no O_NOFOLLOW, so a link is refused by name first; elsewhere this only gives the
 * clearer refusal before the open's ELOOP. A device is refused by name too: opening one runs its
 * driver (a tape rewinds, a watchdog starts), and fstat after the open would be too late. (A FIFO
 * or a socket is safe to open with O_NONBLOCK; fstat refuses it.) O_EXCL never opens an existing
 * entry, a link included, and a caller that creates exclusively wants EEXIST for a planted link
 * (it then picks another name), so the name is not looked at then.
 */
function checksLinkByName(flags: number): boolean {
  return (flags & constants.O_EXCL) === 0;
}

function refuseLinkByNameSync(path: string, flags: number): void {
  if (!checksLinkByName(flags)) return;
  let stats: Stats | undefined;
  try {
    // Missing (perhaps created next): the open reports it, so no error object is built here.
    stats = lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return; // unreachable: the open reports it
  }
  refuseByName(stats);
}

function refuseByName(stats: Stats | undefined): void {
  if (stats === undefined) return;
  if (stats.isSymbolicLink()) throw new UnsafeFileError({ kind: "symbolic-link" });
  if (stats.isCharacterDevice() || stats.isBlockDevice()) {
    throw new UnsafeFileError({ kind: "not-regular", type: "device" });
  }
}

function requireUsable(stats: Stats, options: SafeOpenOptions): Stats {
  if (!stats.isFile()) {
    throw new UnsafeFileError({ kind: "not-regular", type: nonRegularType(stats) });
  }
  if (options.oneName === true && stats.nlink > 1) {
    throw new UnsafeFileError({ kind: "hard-links", links: stats.nlink });
  }
  return stats;
}
