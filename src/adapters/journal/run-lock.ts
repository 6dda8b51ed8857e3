/**
 * One process at a time works on a run: the lock is a file holding the owner's pid, made by
 * linking a finished draft to the lock's name. A lock left by a process that died (kill -9) is taken over; a live one is refused.
 */
import {
  closeSync,
  constants,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { randomBytes } from "node:crypto";
import { errorCode, O_NOFOLLOW } from "../filesystem/index.js";

/** Another live process holds the run. */
export class RunLockedError extends Error {
  override readonly name = "RunLockedError";
}

export interface RunLock {
  release(): void;
}

export function lockRun(path: string, pid: number = process.pid): RunLock {
  if (tryCreate(path, pid)) return releaser(path);
  const holder = holderOf(path);
  if (holder !== undefined && isAlive(holder)) throw locked(path, holder);
  // Stale: move it aside under a name of our own, check that what we moved is still the dead
  // holder's (another process may have taken the lock meanwhile), then compete again with O_EXCL.
  const aside = `${path}.stale-${pid}`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw error;
  }
  const moved = holderOf(aside);
  if (moved !== undefined && moved !== holder && isAlive(moved)) {
    // We moved a live lock: put it back (link fails if a third took the name) and give way.
    try {
      linkSync(aside, path);
    } catch {
      // Someone holds the name again either way.
    }
    removeQuietly(aside);
    throw locked(path, moved);
  }
  removeQuietly(aside);
  if (tryCreate(path, pid)) return releaser(path);
  throw locked(path, holderOf(path));
}

/**
 * The lock appears whole or not at all: the pid is written to a file of our own first, then
 * linked to the lock's name (link fails if the name exists). Created and written in two steps, a
 * second process could read it empty in between, take it for a dead holder's and take it over.
 */
function tryCreate(path: string, pid: number): boolean {
  const draft = `${path}.new-${pid}-${randomBytes(4).toString("hex")}`;
  const fd = openSync(
    draft,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW,
    0o600,
  );
  try {
    writeSync(fd, `${pid}\n`);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(draft, path);
    return true;
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false;
    throw error;
  } finally {
    removeQuietly(draft);
  }
}

function holderOf(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, "utf8").trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** `kill(pid, 0)`: EPERM means a process exists but is someone else's, so it counts as alive. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === "EPERM";
  }
}

function locked(path: string, holder: number | undefined): RunLockedError {
  const who = holder === undefined ? "another process" : `process ${holder}`;
  return new RunLockedError(
    `the run is in use by ${who} (lock ${path}); wait for it to end, or remove the lock if that process is gone`,
  );
}

function releaser(path: string): RunLock {
  let released = false;
  return {
    release(): void {
      if (released) return;
      released = true;
      removeQuietly(path);
    },
  };
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

/** Who holds the lock now, if a live process does (for `agent runs`). */
export function liveHolder(path: string): number | undefined {
  const holder = holderOf(path);
  return holder !== undefined && isAlive(holder) ? holder : undefined;
}
