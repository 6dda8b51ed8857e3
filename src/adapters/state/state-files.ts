/**
 * Small safe-file steps inside the state directory (which openWorkspaceState has already checked
 * is the person's own, owner-only, and no link): subdirectories that must be real directories,
 * files created once and never through a link, and whole-file reads that refuse links.
 */
import { constants, lstatSync, mkdirSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { randomBytes } from "node:crypto";
import { errorCode, readHarnessInput } from "../filesystem/index.js";
import { StateDirectoryError } from "./state-directory.js";
import { nodeStateFileOps, type StateFileOps } from "./state-file-ops.js";

const MAX_RECORD_BYTES = 64 * 1024;

/** mkdir (owner-only) and insist on a real directory, never a link to one. */
export function ensureSubdirectory(parent: string, name: string): string {
  const path = join(parent, name);
  try {
    mkdirSync(path, { mode: 0o700 });
  } catch (error) {
    if (errorCode(error) !== "EEXIST") {
      throw new StateDirectoryError(`${path} cannot be created (${errorCode(error) ?? "error"})`);
    }
  }
  const stats = lstatSync(path);
  if (stats.isSymbolicLink() || !stats.isDirectory()) {
    throw new StateDirectoryError(`${path} is not a directory of the harness's own`);
  }
  return path;
}

/**
 * Creates a new file with this content; false when the name is taken (never overwritten). When
 * any step after creating it fails (write, fsync), the file is removed again and the error
 * thrown: a record that may not survive a power loss is not left for anyone to act on.
 */
export function createOnce(
  path: string,
  content: string,
  files: StateFileOps = nodeStateFileOps,
): boolean {
  let fd: number;
  try {
    // "wx" is O_CREAT | O_EXCL: it never follows a link, and never replaces a file.
    fd = files.openSync(path, "wx", 0o600);
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false;
    throw error;
  }
  try {
    try {
      files.writeSync(fd, content);
      // Contents on disk before any rename or link can publish them (power loss).
      files.fsyncSync(fd);
    } finally {
      files.closeSync(fd);
    }
    syncDirectory(dirname(path), files);
  } catch (error) {
    removeQuietly(path, files);
    throw error;
  }
  return true;
}

/**
 * Publishes a whole file under `name` in one step: written first under a private temporary name,
 * then renamed, so a reader never sees half of it. If the rename cannot be made durable, the
 * published name is removed again before the error is thrown (fail closed).
 */
export function publish(
  directory: string,
  name: string,
  content: string,
  files: StateFileOps = nodeStateFileOps,
): void {
  const temporary = join(directory, `.tmp-${randomBytes(8).toString("hex")}`);
  if (!createOnce(temporary, content, files)) {
    throw new StateDirectoryError(`${temporary} exists`);
  }
  const published = join(directory, name);
  try {
    files.renameSync(temporary, published);
  } catch (error) {
    removeQuietly(temporary, files);
    throw error;
  }
  try {
    syncDirectory(directory, files);
  } catch (error) {
    removeQuietly(published, files);
    throw error;
  }
}

/** Removes a name this process made, after a failure; a second failure must not hide the first. */
export function removeQuietly(path: string, files: StateFileOps = nodeStateFileOps): void {
  try {
    files.unlinkSync(path);
  } catch {
    // Already gone, or the disk is failing: the first error is the one reported.
  }
}

/** The JSON of a regular file (never through a link); undefined when it does not exist. */
export function readRecord(path: string): unknown {
  let text: string;
  try {
    text = readHarnessInput(path, MAX_RECORD_BYTES);
  } catch (error) {
    if (error instanceof Error && error.message.includes("ENOENT")) return undefined;
    throw error;
  }
  return JSON.parse(text) as unknown;
}

/** Names in a directory that end in `.json` and do not start with a dot, sorted. */
export function listRecords(directory: string): string[] {
  return readdirSync(directory)
    .filter((name) => name.endsWith(".json") && !name.startsWith("."))
    .sort();
}

/**
 * Moves `from` to `to` if it is still there. rename(2) is atomic: of any number of processes
 * moving the same name, exactly one succeeds and the others find it gone (false). If the move
 * cannot be made durable the error is thrown, and the name stays moved: never used twice.
 */
export function takeOnce(
  from: string,
  to: string,
  files: StateFileOps = nodeStateFileOps,
): boolean {
  try {
    files.renameSync(from, to);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return false;
    throw error;
  }
  // The move must survive a power loss before the grant is acted on, or it could be used twice.
  syncDirectory(dirname(from), files);
  if (dirname(to) !== dirname(from)) syncDirectory(dirname(to), files);
  return true;
}

/** Makes created, renamed and removed names durable. Windows cannot fsync a directory: skipped. */
export function syncDirectory(directory: string, files: StateFileOps = nodeStateFileOps): void {
  if (process.platform === "win32") return;
  const fd = files.openSync(directory, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    files.fsyncSync(fd);
  } finally {
    files.closeSync(fd);
  }
}
