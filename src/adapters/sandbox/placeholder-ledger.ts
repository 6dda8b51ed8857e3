/**
 * Which placeholders (absent-placeholders.ts) the harness made, and which runs' commands are
 * holding each right now. Two runs in one workspace must share it: a placeholder is a mount point
 * in each command that binds it, and unlinking it on the host detaches every such bind (Linux
 * 3.18 and later), so a run that removed "its" placeholder while another run's command had it
 * bound would leave that command free to create the very file the placeholder kept absent. So
 * a placeholder is removed only by the last run to let it go, and a run that finds one another
 * run made holds it as its own instead of taking it for a file of the person's.
 *
 * The ledger lives in this workspace's state directory (hidden from commands), one JSON file
 * changed only under the lock a run's journal is locked with (journal/run-lock.ts): a live
 * holder's lock is waited for, a killed run's is taken over by exactly one of the runs that find
 * it, never removed from under a live one. Each holder is `pid:token`; one whose process
 * is gone (a killed run) no longer holds anything, so its placeholder is removed by the next run
 * that lets it go.
 */
import { randomUUID } from "node:crypto";
import {
  closeSync,
  constants,
  mkdirSync,
  lstatSync,
  openSync,
  renameSync,
  writeSync,
} from "node:fs";
import path from "node:path";
import { firstLineOfError } from "../../core/common/one-line.js";
import { errorCode, openRegularFileSync, readAtMostSync } from "../filesystem/index.js";
import { lockRun, RunLockedError, type RunLock } from "../journal/index.js";
import { SandboxContentError } from "./sandbox-errors.js";

/** One placeholder the harness made: the empty file's identity and who holds it now. */
export interface LedgerEntry {
  readonly dev: number;
  readonly ino: number;
  readonly holders: string[];
}

export type LedgerEntries = Map<string, LedgerEntry>;

/** Read and change the entries, exclusively among every run that shares the ledger. */
export interface PlaceholderLedger {
  /** This run's holder name. */
  readonly holder: string;
  update<T>(change: (entries: LedgerEntries) => T): T;
}

/** For a runner whose placeholders no other run can see (tests, a run without a state directory). */
export class MemoryPlaceholderLedger implements PlaceholderLedger {
  readonly holder = `${process.pid}:${randomUUID()}`;
  readonly #entries: LedgerEntries = new Map();

  update<T>(change: (entries: LedgerEntries) => T): T {
    return change(this.#entries);
  }
}

/** How long a run waits for another to finish its (short, synchronous) turn with the ledger. */
const LOCK_WAIT_MS = 10_000;
const LOCK_RETRY_MS = 2;

/** The ledger in `directory`, shared by every run of this workspace that names the same one. */
export class DirectoryPlaceholderLedger implements PlaceholderLedger {
  readonly holder = `${process.pid}:${randomUUID()}`;
  readonly #directory: string;
  readonly #waitMs: number;

  /** `waitMs`: how long to wait for a live run's turn with the ledger (shorter in tests). */
  constructor(directory: string, waitMs: number = LOCK_WAIT_MS) {
    this.#directory = directory;
    this.#waitMs = waitMs;
  }

  update<T>(change: (entries: LedgerEntries) => T): T {
    mkdirSync(this.#directory, { recursive: true, mode: 0o700 });
    // mkdir follows a link at the name: the ledger must be in the folder itself, not elsewhere.
    if (lstatSync(this.#directory, { throwIfNoEntry: false })?.isDirectory() !== true) {
      throw this.#refusal("it is not a folder");
    }
    const lock = this.#acquire(path.join(this.#directory, "lock"));
    try {
      const entries = this.#read();
      withoutGoneHolders(entries);
      const result = change(entries);
      this.#write(entries);
      return result;
    } finally {
      lock.release();
    }
  }

  /**
   * The run lock's protocol: two runs that find the same killed run's lock could both have
   * removed it and both gone on (the lock broken by name, not by which file it was).
   */
  #acquire(lock: string): RunLock {
    const deadline = Date.now() + this.#waitMs;
    const pause = new Int32Array(new SharedArrayBuffer(4));
    for (;;) {
      try {
        return lockRun(lock);
      } catch (error) {
        if (!(error instanceof RunLockedError)) {
          throw this.#refusal(errorCode(error) ?? firstLineOfError(error));
        }
      }
      if (Date.now() > deadline) throw this.#refusal("another run kept it locked");
      Atomics.wait(pause, 0, 0, LOCK_RETRY_MS);
    }
  }

  #read(): LedgerEntries {
    let text: string;
    try {
      text = readOwnFile(path.join(this.#directory, "ledger.json"));
    } catch (error) {
      if (errorCode(error) === "ENOENT") return new Map();
      throw this.#refusal(errorCode(error) ?? "not a regular file with one name");
    }
    const entries: LedgerEntries = new Map();
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== "object" || parsed === null) return entries;
      for (const [name, value] of Object.entries(parsed)) {
        const entry = ledgerEntry(value);
        if (entry !== undefined) entries.set(name, entry);
      }
    } catch {
      // A torn file cannot be: it is replaced by rename. Anything unreadable holds nothing.
    }
    return entries;
  }

  #write(entries: LedgerEntries): void {
    const file = path.join(this.#directory, "ledger.json");
    const next = `${file}.${this.holder.replace(":", "-")}.tmp`;
    const fd = openSync(
      next,
      constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
      0o600,
    );
    try {
      writeSync(fd, JSON.stringify(Object.fromEntries(entries)));
    } finally {
      closeSync(fd);
    }
    renameSync(next, file);
  }

  #refusal(why: string): SandboxContentError {
    return new SandboxContentError(
      `The sandbox refuses to run this command: it could not read which placeholders other runs ` +
        `in this workspace hold (${path.join(this.#directory, "lock")}: ${why}), and without that ` +
        `a placeholder could be removed while another command relies on it; try again, or run ` +
        `with --sandbox off`,
    );
  }
}

function ledgerEntry(value: unknown): LedgerEntry | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { dev, ino, holders } = value as Record<string, unknown>;
  if (typeof dev !== "number" || typeof ino !== "number" || !Array.isArray(holders)) {
    return undefined;
  }
  return { dev, ino, holders: holders.filter((h): h is string => typeof h === "string") };
}

/** Drops holders whose process is gone: a killed run holds nothing. */
function withoutGoneHolders(entries: LedgerEntries): void {
  for (const entry of entries.values()) {
    const alive = entry.holders.filter((holder) => processAlive(Number(holder.split(":")[0])));
    entry.holders.splice(0, entry.holders.length, ...alive);
  }
}

/** Most a ledger can hold: a few entries per protected path; anything larger is not ours. */
const MAX_LEDGER_BYTES = 1024 * 1024;

/**
 * A file of the ledger's, read as the harness reads its own files: no link followed, no FIFO
 * waited on (it would hang the run with the lock held), a regular file with one name.
 */
function readOwnFile(file: string): string {
  const { handle, stats } = openRegularFileSync(file, constants.O_RDONLY, { oneName: true });
  try {
    const bytes = readAtMostSync(handle, MAX_LEDGER_BYTES, stats.size);
    if (bytes === undefined) throw new Error(`${file} is larger than a ledger can be`);
    return bytes.toString("utf8");
  } finally {
    closeSync(handle);
  }
}

/** Whether a process with this id exists (EPERM: it does, as another user's). */
function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === "EPERM";
  }
}
