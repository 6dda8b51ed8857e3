/** This workspace's runs, newest first, as `agent runs` shows them and `agent resume` picks them. */
import { readdirSync } from "node:fs";
import type { RunStatus } from "../../core/journal/journal-replay.js";
import { firstLineOfError } from "../../core/common/one-line.js";
import { typedPart } from "../../core/runner/mention-attachments.js";
import {
  readJournalEnds,
  readJournalStartTime,
  replayJournalFile,
  type JournalEnds,
} from "./journal-file.js";
import { isRunId, journalPath, lockPath } from "./run-files.js";
import { liveHolder } from "./run-lock.js";

export interface RunSummary {
  readonly runId: string;
  readonly path: string;
  /** ISO time of run_started; absent for a journal that cannot be read. */
  readonly startedAt?: string;
  /**
   * `running`: unfinished and a live process holds it. `open`: a conversation between turns (its
   * last turn completed) that a live process still holds. `unreadable`: see `problem`.
   */
  readonly status: RunStatus | "running" | "open" | "unreadable";
  readonly prompt: string;
  readonly problem?: string;
}

/**
 * The newest `limit` runs (all by default), newest first. Only their journals are read: with a
 * thousand runs, `agent runs` reads twenty.
 */
export function listRuns(runs: string, limit = Number.POSITIVE_INFINITY): RunSummary[] {
  const summaries: RunSummary[] = [];
  for (const run of newestRuns(runs)) {
    if (summaries.length >= limit) break;
    summaries.push(run);
  }
  return summaries;
}

/**
 * Each run's summary, newest first, read only when asked for: a caller that stops at the run it
 * wants (`agent resume` looking for the newest unfinished one) opens no older journal.
 */
export function* newestRuns(runs: string): Generator<RunSummary> {
  for (const runId of runIdsNewestFirst(runs)) yield summarize(runs, runId);
}

/**
 * Every run id, newest first. An id starts with its run's UTC start time to the second
 * (`20261130T234000Z-1a2b3c4d`), so sorting the names sorts by it, and no journal is opened; only
 * runs that share a second are ordered by the start their journals record, to the millisecond
 * (one that cannot be read last), since the rest of the id is random.
 */
export function runIdsNewestFirst(runs: string): string[] {
  const ids = readdirSync(runs)
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) => name.slice(0, -".jsonl".length))
    .filter(isRunId)
    .sort()
    .reverse();
  const ordered: string[] = [];
  for (let at = 0; at < ids.length;) {
    const second = startSecond(ids[at] ?? "");
    let end = at + 1;
    while (end < ids.length && startSecond(ids[end] ?? "") === second) end += 1;
    const sameSecond = ids.slice(at, end);
    ordered.push(...(sameSecond.length === 1 ? sameSecond : byRecordedStart(runs, sameSecond)));
    at = end;
  }
  return ordered;
}

/** `20261130T234000Z` of `20261130T234000Z-1a2b3c4d`. */
function startSecond(runId: string): string {
  return runId.slice(0, runId.indexOf("-"));
}

/** Newest recorded start first; an unreadable start last; ties keep the ids' order. */
function byRecordedStart(runs: string, runIds: readonly string[]): string[] {
  const starts = new Map(
    runIds.map((runId) => [runId, readJournalStartTime(journalPath(runs, runId)) ?? -Infinity]),
  );
  const startOf = (runId: string): number => starts.get(runId) ?? -Infinity;
  // Compared, not subtracted: two unreadable starts (-Infinity each) would give NaN.
  return [...runIds].sort((a, b) =>
    startOf(a) === startOf(b) ? 0 : startOf(b) > startOf(a) ? 1 : -1,
  );
}

function summarize(runs: string, runId: string): RunSummary {
  const path = journalPath(runs, runId);
  try {
    // A long journal is read at its ends (its first record, its last status), a short one whole.
    const ends = readJournalEnds(path) ?? endsOfWhole(path);
    const held =
      (ends.status === "unfinished" || ends.status === "completed") &&
      liveHolder(lockPath(runs, runId)) !== undefined;
    return {
      runId,
      path,
      startedAt: ends.start.time,
      status: held ? (ends.status === "unfinished" ? "running" : "open") : ends.status,
      // The person's words: a mention's attached file is the model's to read, not the list's.
      prompt: typedPart(ends.start.prompt),
    };
  } catch (error) {
    return { runId, path, status: "unreadable", prompt: "", problem: firstLineOfError(error) };
  }
}

function endsOfWhole(path: string): JournalEnds {
  const { start, replayed } = replayJournalFile(path);
  return { start, status: replayed.status };
}
