/**
 * Files the harness writes for itself (`--audit-log`, `--record`) and reads (`--replay`). Each is
 * opened once, at start, by a name whose last component must not be a symbolic link, and only a
 * regular file with that one name (no second hard link) is kept; later writes go to that descriptor. A sandboxed command that swaps the name
 * for a link or a FIFO afterwards redirects nothing and blocks nothing.
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fdatasync,
  fstatSync,
  ftruncateSync,
  readSync,
  realpathSync,
  write,
} from "node:fs";
import { promisify } from "node:util";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { firstLineOfError } from "../../core/common/one-line.js";
import { errorCode } from "./fs-errors.js";
import { DirectoryNotHeldError, HeldDirectory } from "./held-directory.js";
import { openRegularFileSync, readAtMostSync, UnsafeFileError } from "./safe-open.js";
import { ConfigurationError } from "../../core/common/configuration-error.js";

/**
 * A harness file that cannot be used: a configuration problem, reported before the run. The
 * message says why (`it is a symbolic link; …`); callers put the file's role and path in front.
 */
export class HarnessFileError extends ConfigurationError {
  override readonly name = "HarnessFileError";
}

export interface HarnessOutput {
  /** The open descriptor every later write goes to. */
  readonly fd: number;
  /** Absolute real path of the file when it was opened; the workspace protects it by this. */
  readonly realPath: string;
}

export interface HarnessOutputOptions {
  /** Start the file empty (a recording) instead of appending (the audit log). */
  readonly truncate: boolean;
}

/** Opens (creating it owner-only) a file the harness appends to, by the safe open. */
export function openHarnessOutput(path: string, options: HarnessOutputOptions): HarnessOutput {
  let fd: number;
  try {
    fd = openRegularFileSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND, {
      mode: 0o600,
      oneName: true,
    }).handle;
  } catch (error) {
    throw harnessFileError(error);
  }
  try {
    if (options.truncate) {
      // Only now, on a descriptor known to be a regular file: O_TRUNC would act before the check.
      ftruncateSync(fd, 0);
      // Owner-only, even when replacing an older file: a conversation holds file contents.
      fchmodSync(fd, 0o600);
    }
    return { fd, realPath: join(realpathSync.native(dirname(path)), basename(path)) };
  } catch (error) {
    closeSync(fd);
    throw new HarnessFileError(firstLineOfError(error));
  }
}

const writeAt = promisify(write);
const syncData = promisify(fdatasync);

/**
 * Appends `text` to a descriptor from `openHarnessOutput` and flushes it to disk before resolving:
 * a record written this way survives a crash or power loss once the promise settles. O_APPEND puts
 * each write at the end, even when the file grew meanwhile.
 */
export async function appendDurably(fd: number, text: string | Uint8Array): Promise<void> {
  await appendWritten(fd, text);
  await syncData(fd);
}

/**
 * Appends `text` whole, as `appendDurably` does, without the flush: the record survives the
 * process ending at once but not a power loss until `flushHarnessFile` has settled.
 */
export async function appendWritten(fd: number, text: string | Uint8Array): Promise<void> {
  const bytes = typeof text === "string" ? Buffer.from(text, "utf8") : text;
  for (let written = 0; written < bytes.length;) {
    const { bytesWritten } = await writeAt(fd, bytes, written, bytes.length - written);
    written += bytesWritten;
  }
}

/** Flushes what was written to a harness output's descriptor to disk (fdatasync). */
export async function flushHarnessFile(fd: number): Promise<void> {
  await syncData(fd);
}

export interface HarnessInputOptions {
  /**
   * Refuse a file with a second hard link: for a file that decides what the harness allows, which
   * a command could otherwise rewrite in place through a name the harness does not protect.
   */
  readonly oneName?: boolean;
}

/**
 * Cuts a harness file back to `length` bytes, only while it is still `expectedBytes` long (false
 * otherwise), opened as every harness file is: never through a link, never waiting on a FIFO, a
 * regular file with one name (through a second name the cut would reach a file elsewhere).
 */
export function truncateHarnessFile(path: string, expectedBytes: number, length: number): boolean {
  let fd: number;
  try {
    fd = openRegularFileSync(path, constants.O_WRONLY, { oneName: true }).handle;
  } catch (error) {
    throw harnessFileError(error);
  }
  try {
    if (fstatSync(fd).size !== expectedBytes) return false;
    ftruncateSync(fd, length);
    return true;
  } finally {
    closeSync(fd);
  }
}

/** Reads a whole regular file of at most `maxBytes` as UTF-8, with the same safe open. */
export function readHarnessInput(
  path: string,
  maxBytes: number,
  options: HarnessInputOptions = {},
): string {
  let fd: number;
  let size: number;
  try {
    const opened = openRegularFileSync(path, constants.O_RDONLY, options);
    fd = opened.handle;
    size = opened.stats.size;
    if (size > maxBytes) {
      closeSync(fd);
      throw tooLarge(maxBytes);
    }
  } catch (error) {
    throw harnessFileError(error);
  }
  try {
    const bytes = readAtMostSync(fd, maxBytes, size);
    if (bytes === undefined) throw tooLarge(maxBytes);
    return bytes.toString("utf8");
  } catch (error) {
    throw harnessFileError(error);
  } finally {
    closeSync(fd);
  }
}

/** Where a harness input's whole lines end, and how many bytes follow the last of them. */
export interface HarnessLineEnds {
  /** Bytes up to and including the last newline. */
  readonly wholeBytes: number;
  /** Bytes after it: a last line cut short (0 when the input ends with a newline). */
  readonly cutBytes: number;
}

/** How much of an input `readHarnessLines` holds at a time. */
const LINE_CHUNK_BYTES = 64 * 1024;

/**
 * `readHarnessInput`'s checks and limit, then the input's whole lines handed to `take` a chunk at
 * a time (one or more lines joined by "\n", without the last newline), in order. Neither the
 * file's bytes nor its text is ever held whole: for a 999-call run's 2 MB journal those were two
 * fresh 2 MB allocations, whose page faults cost more than the parse (docs/how-it-starts.md).
 * Lines are cut at the newline byte, which is never part of a multi-byte character, so the text
 * is what decoding the whole file would give. An error `take` throws is rethrown as it is.
 */
export function readHarnessLines(
  path: string,
  maxBytes: number,
  take: (lines: string) => void,
): HarnessLineEnds {
  return useHarnessInput(path, maxBytes, (file) => {
    // A fixed size, not the size at open: a file that grows while it is read is still read in
    // chunks, not a byte at a time.
    const chunk = Buffer.allocUnsafe(LINE_CHUNK_BYTES);
    /**
     * The bytes after the last newline seen so far, as copies of the chunks they came in, joined
     * once a newline ends them: a line of many chunks (a model reply may be megabytes) is copied
     * twice, not once per chunk.
     */
    const carry: Buffer[] = [];
    let position = 0;
    let wholeBytes = 0;
    for (;;) {
      let got: number;
      try {
        got = file.readInto(chunk, position);
      } catch (error) {
        throw harnessFileError(error);
      }
      if (got === 0) break;
      position += got;
      if (position > maxBytes) throw harnessFileError(tooLarge(maxBytes));
      const read = chunk.subarray(0, got);
      const last = read.lastIndexOf(0x0a);
      if (last < 0) {
        carry.push(Buffer.from(read));
        continue;
      }
      const lines = read.subarray(0, last);
      take((carry.length === 0 ? lines : Buffer.concat([...carry, lines])).toString("utf8"));
      wholeBytes = position - got + last + 1;
      carry.length = 0;
      if (last + 1 < got) carry.push(Buffer.from(read.subarray(last + 1)));
    }
    return { wholeBytes, cutBytes: position - wholeBytes };
  });
}

/** A harness input opened with `readHarnessInput`'s checks, read by position. */
export interface HarnessInputFile {
  readonly size: number;
  /** Up to `length` bytes from `position` (fewer only at the end of the file). */
  read(position: number, length: number): Buffer;
  /** Fills `target` from `position` as far as the file goes; the number of bytes read. */
  readInto(target: Buffer, position: number): number;
}

/**
 * `readHarnessInput`'s checks (a regular file with one name, no link, at most `maxBytes`), then
 * `use` reads only the parts it needs: a long journal's first and last records, not its middle.
 */
export function useHarnessInput<T>(
  path: string,
  maxBytes: number,
  use: (file: HarnessInputFile) => T,
): T {
  let fd: number;
  let size: number;
  try {
    const opened = openRegularFileSync(path, constants.O_RDONLY, {});
    fd = opened.handle;
    size = opened.stats.size;
    if (size > maxBytes) {
      closeSync(fd);
      throw tooLarge(maxBytes);
    }
  } catch (error) {
    throw harnessFileError(error);
  }
  const readInto = (target: Buffer, position: number): number => {
    let filled = 0;
    while (filled < target.length) {
      const got = readSync(fd, target, filled, target.length - filled, position + filled);
      if (got === 0) break;
      filled += got;
    }
    return filled;
  };
  const read = (position: number, length: number): Buffer => {
    const buffer = Buffer.allocUnsafe(length);
    return buffer.subarray(0, readInto(buffer, position));
  };
  try {
    return use({ size, read, readInto });
  } finally {
    closeSync(fd);
  }
}

/**
 * `readHarnessInput` of `name` inside `directory` (a real path), through the directory held open:
 * the last-component check alone would let a command swap the directory for a link between the
 * check and the read, and the file would be read from wherever the link points.
 */
export function readHarnessInputIn(
  directory: string,
  name: string,
  maxBytes: number,
  options: HarnessInputOptions = {},
): string {
  let held: HeldDirectory;
  try {
    held = HeldDirectory.open(directory, "its directory");
  } catch (error) {
    throw heldDirectoryError(error);
  }
  try {
    const entry = held.entry(name);
    let text: string;
    try {
      text = readHarnessInput(entry, maxBytes, options);
    } catch (error) {
      // A platform error quotes the path it opened: `/proc/self/fd/N/…` means nothing to a person.
      if (!(error instanceof HarnessFileError) || entry === join(directory, name)) throw error;
      throw new HarnessFileError(error.message.replaceAll(entry, join(directory, name)));
    }
    // Without /proc the entry is a path: a swap during the read shows here (narrowed, not closed).
    if (!held.reachesByDescriptor && !held.isStillAtPath()) {
      throw new HarnessFileError("its directory moved while it was read");
    }
    return text;
  } finally {
    held.close();
  }
}

function heldDirectoryError(error: unknown): HarnessFileError {
  if (!(error instanceof DirectoryNotHeldError)) return harnessFileError(error);
  switch (error.reason) {
    case "symbolic-link":
      return new HarnessFileError(
        "its directory is a symbolic link; the harness does not follow links for its own files",
      );
    case "not-directory":
      return new HarnessFileError("its directory is not a directory");
    case "moved":
      return new HarnessFileError("its directory moved while it was opened");
    case "failed":
      // The code first, as readHarnessInput's own platform errors read (`ENOENT: …`).
      return new HarnessFileError(`${error.code ?? "error"}: its directory cannot be opened`);
  }
}

function harnessFileError(error: unknown): HarnessFileError {
  if (error instanceof HarnessFileError) return error;
  if (error instanceof UnsafeFileError) {
    const unsafe = error.unsafe;
    switch (unsafe.kind) {
      case "symbolic-link":
        return symbolicLink();
      case "not-regular":
        return new HarnessFileError(
          `it is ${NON_REGULAR_WORDS[unsafe.type]}; the harness only uses a regular file`,
        );
      case "hard-links":
        // Another name for the same file: a command could truncate or rewrite the audit log
        // through it even though the harness's own name is read-only in the sandbox.
        return new HarnessFileError(
          `it has ${String(unsafe.links)} hard links; another name could change what the harness writes, so use a file with one name`,
        );
    }
  }
  switch (errorCode(error)) {
    case "ELOOP":
      return symbolicLink();
    case "ENXIO":
      // A FIFO with no reader (O_NONBLOCK) or a socket.
      return new HarnessFileError("it is a FIFO or socket; the harness only uses a regular file");
    case "EISDIR":
      return new HarnessFileError("it is a directory; the harness only uses a regular file");
    case undefined:
    default:
      return new HarnessFileError(firstLineOfError(error));
  }
}

const NON_REGULAR_WORDS = {
  directory: "a directory",
  FIFO: "a FIFO",
  socket: "a socket",
  device: "a device",
  other: "not a regular file",
} as const;

function symbolicLink(): HarnessFileError {
  return new HarnessFileError(
    "it is a symbolic link; the harness does not follow links for its own files",
  );
}

function tooLarge(maxBytes: number): HarnessFileError {
  return new HarnessFileError(`it is over the ${maxBytes}-byte limit`);
}

/**
 * What of the agent's own package the host runs or builds from: the bundle and launcher (dist/),
 * the build and `npm run agent` scripts, the manifests and lock file, npm's project config and the
 * dependencies the build loads. A command or a file tool that changed one of them would change
 * what the host runs at the agent's next start.
 */
export const AGENT_INSTALL_ENTRIES = Object.freeze([
  "dist",
  "scripts",
  "package.json",
  "package-lock.json",
  ".npmrc",
  "node_modules",
]);

/**
 * Absolute real paths of the agent's own install, found from `moduleUrl` (the running module: the
 * bundle in dist/, or src/cli/main.ts): the nearest directory above it whose package.json names
 * `packageName`, then its AGENT_INSTALL_ENTRIES (those that do not exist too: the file tools must
 * not create them; an entry that is a link adds its target). Empty when no such package is found.
 */
export function agentInstallPaths(moduleUrl: string | URL, packageName: string): string[] {
  let directory: string;
  try {
    directory = dirname(realpathSync.native(fileURLToPath(moduleUrl)));
  } catch {
    return [];
  }
  for (;;) {
    if (namesPackage(join(directory, "package.json"), packageName)) break;
    const parent = dirname(directory);
    if (parent === directory) return [];
    directory = parent;
  }
  const paths: string[] = [];
  for (const entry of AGENT_INSTALL_ENTRIES) {
    const path = join(directory, entry);
    paths.push(path);
    try {
      const real = realpathSync.native(path);
      if (real !== path) paths.push(real);
    } catch {
      // missing: protected by name only
    }
  }
  return paths;
}

function namesPackage(path: string, packageName: string): boolean {
  try {
    const raw: unknown = JSON.parse(readHarnessInput(path, 1024 * 1024));
    return typeof raw === "object" && raw !== null && "name" in raw && raw.name === packageName;
  } catch {
    return false;
  }
}
