/**
 * The harness writes into cgroup directories it made itself, under paths it computed: each is
 * checked to be a real directory (no symbolic link anywhere on its path) owned by this process's
 * user, and control files are opened without following links and never created. A real cgroup
 * filesystem holds no links at all; the checks are for anything else mounted or planted there.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  writeSync,
  type Stats,
} from "node:fs";

export class CgroupError extends Error {
  override readonly name = "CgroupError";
}

/**
 * `mkdir` the directory; with `reuse` an existing one is accepted (a parent shared by every
 * harness), else it must be new. Either way it must then pass `assertOwnDirectory`.
 */
export function makeOwnDirectory(directory: string, reuse: boolean): void {
  try {
    mkdirSync(directory, { mode: 0o755 });
  } catch (error) {
    if (!reuse || (error as NodeJS.ErrnoException).code !== "EEXIST") {
      throw new CgroupError(`cannot create ${directory}: ${messageOf(error)}`);
    }
  }
  assertOwnDirectory(directory);
}

/** A directory, reached through no symbolic link, owned by the user this process runs as. */
export function assertOwnDirectory(directory: string): void {
  const stats = assertRealDirectory(directory);
  if (stats.uid !== process.geteuid?.()) {
    throw new CgroupError(`${directory} belongs to another user (uid ${String(stats.uid)})`);
  }
}

/** A directory that is what its path says: not a link, and no link on the way to it. */
export function assertRealDirectory(directory: string): Stats {
  let stats: Stats;
  try {
    stats = lstatSync(directory);
  } catch (error) {
    throw new CgroupError(`cannot check ${directory}: ${messageOf(error)}`);
  }
  if (stats.isSymbolicLink()) throw new CgroupError(`${directory} is a symbolic link`);
  if (!stats.isDirectory()) throw new CgroupError(`${directory} is not a directory`);
  if (realOrUndefined(directory) !== directory) {
    throw new CgroupError(`${directory} is reached through a symbolic link`);
  }
  return stats;
}

function realOrUndefined(candidate: string): string | undefined {
  try {
    return realpathSync.native(candidate);
  } catch {
    return undefined;
  }
}

/** Writes one value into an existing control file (`pids.max`), never creating or following. */
export function writeControl(file: string, value: string): void {
  let fd: number;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_NOFOLLOW);
  } catch (error) {
    throw new CgroupError(`cannot open ${file}: ${messageOf(error)}`);
  }
  try {
    if (!fstatSync(fd).isFile()) throw new CgroupError(`${file} is not a regular file`);
    writeSync(fd, value);
  } catch (error) {
    if (error instanceof CgroupError) throw error;
    throw new CgroupError(`cannot write ${value} to ${file}: ${messageOf(error)}`);
  } finally {
    closeSync(fd);
  }
}

/** The text of a control file; undefined when it is missing or unreadable (an older kernel). */
export function readControl(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    return fstatSync(fd).isFile() ? readFileSync(fd, "utf8") : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Whether a control file exists as a regular file (which controllers a directory holds). */
export function hasControl(file: string): boolean {
  try {
    return lstatSync(file).isFile();
  } catch {
    return false;
  }
}

/** `oom_kill 2` in a `key value` file (memory.events, pids.events, memory.oom_control). */
export function countIn(text: string | undefined, key: string): number | undefined {
  const line = text?.split("\n").find((row) => row.startsWith(`${key} `));
  const value = Number(line?.slice(key.length + 1).trim());
  return line === undefined || !Number.isSafeInteger(value) ? undefined : value;
}

export function messageOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" ? code : error instanceof Error ? error.message : String(error);
}
