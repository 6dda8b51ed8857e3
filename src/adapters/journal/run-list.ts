/** This workspace's runs, newest first, as `agent runs` shows them and `agent resume` picks them. */
import { readdirSync } from "node:fs";
import { replayJournal, type RunStatus } from "../../core/journal/journal-replay.js";
import { firstLineOfError } from "../../core/common/one-line.js";
import { readJournalFile } from "./journal-file.js";
import { isRunId, journalPath, lockPath } from "./run-files.js";
import { liveHolder } from "./run-lock.js";

export interface RunSummary {
  readonly runId: string;
  readonly path: string;
  /** ISO time of run_started; absent for a journal that cannot be read. */
  readonly startedAt?: string;
  /** `running`: unfinished and a live process holds it. `unreadable`: see `problem`. */
  readonly status: RunStatus | "running" | "unreadable";
  readonly prompt: string;
  readonly problem?: string;
}

export function listRuns(runs: string): RunSummary[] {
  const ids = readdirSync(runs)
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) => name.slice(0, -".jsonl".length))
    .filter(isRunId)
    .sort()
    .reverse();
  return ids.map((runId) => summarize(runs, runId));
}

function summarize(runs: string, runId: string): RunSummary {
  const path = journalPath(runs, runId);
  try {
    const contents = readJournalFile(path);
    const replayed = replayJournal(contents.records);
    const running =
      replayed.status === "unfinished" && liveHolder(lockPath(runs, runId)) !== undefined;
    return {
      runId,
      path,
      startedAt: contents.start.time,
      status: running ? "running" : replayed.status,
      prompt: replayed.prompt,
    };
  } catch (error) {
    return { runId, path, status: "unreadable", prompt: "", problem: firstLineOfError(error) };
  }
}
