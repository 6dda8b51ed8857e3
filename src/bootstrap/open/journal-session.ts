/**
 * The journal of the run this process works on: a new run's (a fresh id, its lock, its file), or
 * the one `agent resume` picked and locked. Closed once, at the end, whatever happened.
 */
import { statSync, unlinkSync } from "node:fs";
import {
  FileRunJournal,
  journalPath,
  lockPath,
  lockRun,
  newRunId,
  type RunContext,
  type RunLock,
} from "../../adapters/journal/index.js";
import type { ReplayedRun } from "../../core/journal/journal-replay.js";
import type { RunStore } from "./run-store.js";

/** What `agent resume` hands the run: the run, locked, and what its journal says. */
export interface ResumePlan {
  readonly runId: string;
  readonly path: string;
  readonly lock: RunLock;
  readonly replayed: ReplayedRun;
}

export interface JournalSession {
  readonly runId: string;
  /** For a resumed run: what its journal says so far. */
  readonly resumed: ReplayedRun | undefined;
  readonly journal: FileRunJournal;
  close(): void;
}

export function openJournalSession(
  store: RunStore,
  context: Omit<RunContext, "runId">,
  resume: ResumePlan | undefined,
): JournalSession {
  const runId = resume?.runId ?? newRunId(new Date());
  const path = resume?.path ?? journalPath(store.runs, runId);
  const lock = resume?.lock ?? lockRun(lockPath(store.runs, runId));
  let journal: FileRunJournal;
  try {
    journal = FileRunJournal.open(path, { ...context, runId });
  } catch (error) {
    lock.release();
    throw error;
  }
  return {
    runId,
    resumed: resume?.replayed,
    journal,
    close(): void {
      journal.close();
      // A conversation left before its first line never started a run: leave no empty journal.
      try {
        if (statSync(path).size === 0) unlinkSync(path);
      } catch {
        // Gone already, or unreadable: nothing to tidy.
      }
      lock.release();
    },
  };
}
