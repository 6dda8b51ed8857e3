/**
 * One process at a time works on a run: the lock is a file holding the owner's pid, a random
 * nonce and (on Linux) when the owner started, made by linking a finished draft to the lock's
 * name. A live holder's lock is refused; a lock left by a process that died (kill -9) is taken
 * over, by any number of racing processes, without ever removing or displacing a lock that a
 * live process holds.
 *
 * Why takeover is safe: the only step that changes a lock a process did not create is one rename
 * over it, and only the one live process that won the claim for that exact lock file (a name
 * derived from its contents, made with link, so one winner) may do it, after checking the lock
 * still holds those contents. Nobody else can change that lock meanwhile: its holder is dead, a new
 * lock cannot be linked over an existing name, and every earlier claimant of it is dead.
 */
import { createHash, randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  linkSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  type Stats,
  unlinkSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { errorCode, O_NOFOLLOW, readHarnessInput } from "../filesystem/index.js";
import { ConfigurationError } from "../../core/common/configuration-error.js";

/** Another live process holds the run. */
export class RunLockedError extends ConfigurationError {
  override readonly name = "RunLockedError";
}

export interface RunLock {
  release(): void;
}

/** The step a contender is about to take; a test can run other contenders between any two. */
export type LockStep = "create" | "observe" | "claim" | "observe-claim" | "verify" | "replace";

/**
 * Whether the process that wrote a lock or claim lives: `start` is what the file says about when
 * it started (absent in older locks and off Linux). Injected so tests can play several processes.
 */
export type Liveness = (pid: number, start?: string) => boolean;

export function lockRun(path: string, pid: number = process.pid): RunLock {
  const steps = lockRunSteps(path, pid, isAlive);
  for (;;) {
    const next = steps.next();
    if (next.done === true) return next.value;
  }
}

/** Rounds of "the lock changed hands, look again" before giving way. */
const MAX_ROUNDS = 16;
/** Claims on one dead lock whose claimant died too, before giving way. */
const MAX_CLAIMS = 64;

/**
 * lockRun as steps: yields before each step that reads or changes a lock name, so a test can
 * interleave several contenders exactly at the racy points. `alive` is injected for the same
 * reason (contenders of a test share one real pid).
 */
export function* lockRunSteps(
  path: string,
  pid: number,
  alive: Liveness,
): Generator<LockStep, RunLock, undefined> {
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    yield "create";
    const mine = writeDraft(path, pid);
    try {
      if (linkNew(mine.draft, path)) return held(path, mine.content, alive);
      yield "observe";
      const seen = observe(path);
      if (seen === undefined) continue; // Released meanwhile: compete again.
      if (seen.pid !== undefined && alive(seen.pid, seen.start)) throw locked(path, seen.pid);
      if (yield* takeOver(path, seen, mine, alive)) return held(path, mine.content, alive);
    } finally {
      removeQuietly(mine.draft);
    }
  }
  throw locked(path, observe(path)?.pid);
}

interface Observed {
  /** Absent when the file holds no pid (damaged): nobody to wait for. */
  readonly pid: number | undefined;
  /** When that process started (`<boot id>:<start time>`), if the file says. */
  readonly start: string | undefined;
  /** Names this exact lock file; a new lock's nonce makes it differ from every earlier one. */
  readonly key: string;
}

interface Draft {
  readonly draft: string;
  readonly content: string;
}

/**
 * Claims the dead lock `seen` and, if this process wins the claim and the lock is still `seen`,
 * renames its own draft over it. False when the lock changed hands meanwhile (look again).
 */
function* takeOver(
  path: string,
  seen: Observed,
  mine: Draft,
  alive: Liveness,
): Generator<LockStep, boolean, undefined> {
  for (let index = 0; index < MAX_CLAIMS; index += 1) {
    const claim = claimPath(path, seen.key, index);
    yield "claim";
    if (linkNew(mine.draft, claim)) {
      try {
        yield "verify";
        if (observe(path)?.key !== seen.key) return false;
        yield "replace";
        renameSync(mine.draft, path);
        return true;
      } finally {
        // The lock no longer holds `seen`, and never will again, so its claims are spent; or
        // the rename failed (Windows: another program has the lock open) and this process gives
        // up, leaving the dead lock to the next claimant.
        removeClaims(path, seen.key);
      }
    }
    yield "observe-claim";
    const claimant = observe(claim);
    // Claims vanish only once the lock has changed hands: look again.
    if (claimant === undefined) return false;
    if (claimant.pid !== undefined && alive(claimant.pid, claimant.start)) {
      throw locked(path, claimant.pid);
    }
    // That claimant died before finishing: the next claim is open.
  }
  throw locked(path, undefined);
}

/** The draft: a file of our own, written whole before it is linked or renamed anywhere. */
function writeDraft(path: string, pid: number): Draft {
  const draft = `${path}.new-${String(pid)}-${randomBytes(4).toString("hex")}`;
  const start = processStatus(pid)?.start;
  const nonce = randomBytes(8).toString("hex");
  const content = `${[String(pid), nonce, ...(start === undefined ? [] : [start])].join(" ")}\n`;
  const fd = openSync(
    draft,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW,
    0o600,
  );
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return { draft, content };
}

/** link(2) fails if the name exists: the lock (or a claim) appears whole, and only once. */
function linkNew(draft: string, name: string): boolean {
  try {
    linkSync(draft, name);
    return true;
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false;
    throw error;
  }
}

/** A lock (or claim) is one short line; anything longer is not one this harness made. */
const MAX_LOCK_BYTES = 512;

/**
 * What a lock or claim name holds now: undefined if nothing is there. Anything but a short
 * regular file (a FIFO that would block the read, a link to one, a directory) was not made by a
 * contender, so it is refused rather than read through or renamed over.
 */
function observe(path: string): Observed | undefined {
  const content = readLock(path);
  if (content === undefined) return undefined;
  const fields = content.trim().split(/\s+/);
  const pid = Number(fields[0]);
  const start = fields[2];
  return {
    pid: Number.isSafeInteger(pid) && pid > 0 ? pid : undefined,
    start: start !== undefined && /^[0-9a-f-]+:[0-9]+$/.test(start) ? start : undefined,
    key: keyOf(content),
  };
}

function keyOf(content: string): string {
  return createHash("sha256").update(content).digest("hex").slice(0, 32);
}

/** The lock is ours: clears what killed contenders left, then hands out the release. */
function held(path: string, content: string, alive: Liveness): RunLock {
  removeLeftovers(path, keyOf(content), alive);
  return releaser(path, content);
}

/**
 * Removes claims on any lock contents but ours, and drafts whose maker is dead. Safe while we hold
 * the lock: a claim names one lock file's contents, which (by the nonce) the lock never holds
 * again once it has changed, so a claim on other contents is spent: its claimant, if alive, finds
 * the lock changed when it checks, or has already finished. Only a live contender uses its draft.
 */
function removeLeftovers(path: string, ownKey: string, alive: Liveness): void {
  const base = basename(path);
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return; // Tidying is best effort.
  }
  for (const name of names) {
    const claim = name.startsWith(`${base}.claim-`)
      ? /^([0-9a-f]{32})-[0-9]+$/.exec(name.slice(`${base}.claim-`.length))
      : null;
    const draft = name.startsWith(`${base}.new-`)
      ? /^([0-9]+)-[0-9a-f]+$/.exec(name.slice(`${base}.new-`.length))
      : null;
    if ((claim !== null && claim[1] !== ownKey) || (draft !== null && !alive(Number(draft[1])))) {
      removeQuietly(join(dirname(path), name));
    }
  }
}

function claimPath(path: string, key: string, index: number): string {
  return `${path}.claim-${key}-${String(index)}`;
}

/**
 * Best effort, never throws: it runs after the rename that may have made the lock ours, and an
 * exception then would leave a held lock that no caller knows to release. Claims it misses are
 * spent; the next holder's removeLeftovers clears them.
 */
function removeClaims(path: string, key: string): void {
  const prefix = `${basename(path)}.claim-${key}-`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith(prefix)) removeQuietly(join(dirname(path), name));
  }
}

/**
 * `kill(pid, 0)`: EPERM means a process exists but is someone else's, so it counts as alive. On
 * Linux a process with that pid is still not the lock's maker if it started at another time (the
 * pid was reused, maybe after a reboot: the state directory outlives it), and a zombie (killed,
 * not yet reaped by its parent) runs no code. When /proc does not say, the pid alone decides.
 */
export function isAlive(pid: number, start?: string): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if (errorCode(error) !== "EPERM") return false;
  }
  const status = processStatus(pid);
  if (status === undefined) return true;
  if (status.state === "Z" || status.state === "X") return false;
  return start === undefined || start === status.start;
}

/** The process's state letter and start (`<boot id>:<start time in clock ticks>`), on Linux. */
function processStatus(pid: number): { state: string; start: string } | undefined {
  const boot = bootId();
  if (boot === undefined) return undefined;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${String(pid)}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name (in parentheses) may hold spaces: fields are counted after its last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const state = fields[0];
  const ticks = fields[19]; // Field 22, starttime.
  if (state === undefined || ticks === undefined || !/^[0-9]+$/.test(ticks)) return undefined;
  return { state, start: `${boot}:${ticks}` };
}

let cachedBootId: string | null | undefined;

/** Start times count from boot: with the boot id they name one process across reboots. */
function bootId(): string | undefined {
  if (cachedBootId === undefined) {
    try {
      const id = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
      cachedBootId = /^[0-9a-f-]+$/.test(id) ? id : null;
    } catch {
      cachedBootId = null;
    }
  }
  return cachedBootId ?? undefined;
}

function locked(path: string, holder: number | undefined): RunLockedError {
  const who = holder === undefined ? "another process" : `process ${String(holder)}`;
  return new RunLockedError(
    `the run is in use by ${who} (lock ${path}); wait for it to end, or remove the lock if that process is gone`,
  );
}

function releaser(path: string, content: string): RunLock {
  let released = false;
  return {
    release(): void {
      if (released) return;
      released = true;
      // Only our own lock: if it is somehow someone else's now, it is theirs to remove.
      if (readQuietly(path) === content) removeQuietly(path);
    },
  };
}

/** The file's text, undefined when nothing is at the name, RunLockedError when it is not a lock. */
function readLock(path: string): string | undefined {
  try {
    return readHarnessInput(path, MAX_LOCK_BYTES);
  } catch {
    // The safe read does not keep the platform's code: ask the name itself what is there.
    let stats: Stats | undefined | null;
    try {
      stats = lstatSync(path, { throwIfNoEntry: false });
    } catch {
      stats = null;
    }
    if (stats === undefined) return undefined;
    const what = stats === null ? undefined : notALock(stats);
    // Nobody will ever release such a file, so waiting for it is no use.
    if (what !== undefined) {
      throw new RunLockedError(`${path} is not a lock file (it is ${what}); remove it by hand`);
    }
    throw locked(path, undefined);
  }
}

/** What the name holds if it cannot be a lock any contender made; undefined if it might be. */
function notALock(stats: Stats): string | undefined {
  if (stats.isSymbolicLink()) return "a symbolic link";
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isSocket()) return "a socket";
  if (!stats.isFile()) return "a device";
  if (stats.size > MAX_LOCK_BYTES) return `over ${String(MAX_LOCK_BYTES)} bytes`;
  return undefined;
}

function readQuietly(path: string): string | undefined {
  try {
    return readLock(path);
  } catch {
    return undefined;
  }
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
  let seen: Observed | undefined;
  try {
    seen = observe(path);
  } catch {
    return undefined;
  }
  const holder = seen?.pid;
  return holder !== undefined && isAlive(holder, seen?.start) ? holder : undefined;
}
