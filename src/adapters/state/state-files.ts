/**
 * Small safe-file steps inside the state directory (which openWorkspaceState has already checked
 * is the person's own, owner-only, and no link): subdirectories that must be real directories,
 * files created once and never through a link, and whole-file reads that refuse links.
 */
import {
  closeSync,
  constants,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  writeSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { randomBytes } from "node:crypto";
import { errorCode, readHarnessInput } from "../filesystem/index.js";
import { StateDirectoryError } from "./state-directory.js";

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

/** Creates a new file with this content; false when the name is taken (never overwritten). */
export function createOnce(path: string, content: string): boolean {
  try {
    // "wx" is O_CREAT | O_EXCL: it never follows a link, and never replaces a file.
    const fd = openSync(path, "wx", 0o600);
    try {
      writeSync(fd, content);
      // Contents on disk before any rename or link can publish them (power loss).
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    syncDirectory(dirname(path));
    return true;
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false;
    throw error;
  }
}

/**
 * Publishes a whole file under `name` in one step: written first under a private temporary name,
 * then renamed, so a reader never sees half of it.
 */
export function publish(directory: string, name: string, content: string): void {
  const temporary = join(directory, `.tmp-${randomBytes(8).toString("hex")}`);
  if (!createOnce(temporary, content)) throw new StateDirectoryError(`${temporary} exists`);
  renameSync(temporary, join(directory, name));
  syncDirectory(directory);
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
 * moving the same name, exactly one succeeds and the others find it gone (false).
 */
export function takeOnce(from: string, to: string): boolean {
  try {
    renameSync(from, to);
    // The move must survive a power loss before the grant is acted on, or it could be used twice.
    syncDirectory(dirname(from));
    if (dirname(to) !== dirname(from)) syncDirectory(dirname(to));
    return true;
  } catch (error) {
    if (errorCode(error) === "ENOENT") return false;
    throw error;
  }
}

/** Makes created, renamed and linked names durable. Windows cannot fsync a directory: skipped. */
function syncDirectory(directory: string): void {
  if (process.platform === "win32") return;
  const fd = openSync(directory, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
