/**
 * What `agent resume` needs of the run store: which run to go on with, its lock, and its journal
 * read back (a record cut off by a crash dropped first). The CLI decides what to say about it.
 */
import { existsSync } from "node:fs";
import {
  dropCutTail,
  journalPath,
  lockPath,
  lockRun,
  newestRuns,
  runIdsNewestFirst,
  readJournalFile,
  replayJournalFile,
  type JournalContents,
  type JournalRead,
  type ReplayedJournal,
  type RunLock,
  type RunSummary,
} from "../../adapters/journal/index.js";
import type { RunStore } from "./run-store.js";

export { isRunId } from "../../adapters/journal/index.js";

/** What plain `agent resume` goes on with, and the newest run when that is a newer one. */
export interface RunToResume {
  readonly runId: string;
  /** The workspace's newest run, when it is not the one picked: the person is told why not. */
  readonly passedOver?: RunSummary;
}

/**
 * The newest run when it can go on: unfinished (its process died), waiting (for an approval) or
 * failed (a provider error, the turn limit: resume asks again). Otherwise the newest unfinished
 * or waiting one, never one another process runs; an older failed run only when named.
 */
export function runToResume(store: RunStore): RunToResume | undefined {
  let newest: RunSummary | undefined;
  // Newest first, one journal at a time: the search stops at the first one that fits.
  for (const run of newestRuns(store.runs)) {
    if (newest === undefined) {
      newest = run;
      if (run.status === "failed") return { runId: run.runId };
    }
    if (run.status === "unfinished" || run.status === "waiting") {
      return run === newest ? { runId: run.runId } : { runId: run.runId, passedOver: newest };
    }
  }
  return undefined;
}

/**
 * `agent resume --last`: the workspace's newest run, whatever its state. A conversation killed at
 * its `>` prompt ended its last turn `completed`, so the plain search above passes it over.
 */
export function newestRun(store: RunStore): string | undefined {
  return runIdsNewestFirst(store.runs)[0];
}

/**
 * The model a resumed run goes on with: the one its journal says was in use last, the last
 * `/model` switch, else the model it started with (absent in a journal older than that field).
 */
export function modelInUse(journal: ReplayedJournal): string | undefined {
  return journal.replayed.switchedModel ?? journal.start.model;
}

/** The run's journal path, when the store has that run. */
export function existingJournal(store: RunStore, runId: string): string | undefined {
  const path = journalPath(store.runs, runId);
  return existsSync(path) ? path : undefined;
}

export interface LockedRun<Contents extends JournalRead = JournalContents> {
  readonly lock: RunLock;
  readonly contents: Contents;
}

/**
 * Locks the run, then reads its journal; `onCutTail` hears of a last record cut off by a crash
 * before it is dropped. The lock is released again when reading fails.
 */
export function lockAndReadRun(
  store: RunStore,
  runId: string,
  path: string,
  onCutTail: (cutBytes: number) => void,
): LockedRun {
  return lockedRead(store, runId, () => readJournalFile(path), onCutTail);
}

/**
 * `lockAndReadRun` for `agent resume`: the journal replayed as it is read, its records not kept
 * (a run that does not replay is refused before its cut tail is dropped).
 */
export function lockAndReplayRun(
  store: RunStore,
  runId: string,
  path: string,
  onCutTail: (cutBytes: number) => void,
): LockedRun<ReplayedJournal> {
  return lockedRead(store, runId, () => replayJournalFile(path), onCutTail);
}

function lockedRead<Contents extends JournalRead>(
  store: RunStore,
  runId: string,
  read: () => Contents,
  onCutTail: (cutBytes: number) => void,
): LockedRun<Contents> {
  const lock = lockRun(lockPath(store.runs, runId));
  try {
    const contents = read();
    if (contents.cutBytes > 0) {
      onCutTail(contents.cutBytes);
      dropCutTail(contents);
    }
    return { lock, contents };
  } catch (error) {
    lock.release();
    throw error;
  }
}
