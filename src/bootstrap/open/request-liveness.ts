/**
 * Whether a stored approval request can still be used: only while its run waits on it. A run that
 * has since finished (completed, failed, cancelled) will never consume a grant for it, and a run
 * that waits on a newer request (a changed script asked again, under another call) has moved on.
 * Read from the run's own journal, the record of what it waits on. An approval for either would
 * say "one run of exactly that action" and grant nothing.
 */
import { journalPath, readJournalFile } from "../../adapters/journal/index.js";
import type { StoredRequest } from "../../adapters/state/index.js";
import type { StoredJournalRecord } from "../../core/journal/journal-records.js";
import { replayJournal, type RunStatus } from "../../core/journal/journal-replay.js";

/**
 * Why `stored` can no longer be used; undefined while its run may still use it. `liveRunId` is
 * the run asking, when a run asks (its terminal `y`): its own requests are live by definition,
 * and its journal is not read again at every answer.
 */
export function whyRequestIsStale(
  runs: string,
  stored: StoredRequest,
  liveRunId?: string,
): string | undefined {
  if (stored.runId === liveRunId) return undefined;
  const run = replayedRun(runs, stored.runId);
  if (run === undefined) return undefined;
  const { records, status } = run;
  switch (status) {
    case "completed":
    case "failed":
    case "cancelled":
      return `its run ${stored.runId} has ended (${status})`;
    case "waiting": {
      const waitingOn = lastWaitingRequestId(records);
      return waitingOn === undefined || waitingOn === stored.request.id
        ? undefined
        : `its run ${stored.runId} now waits on request ${waitingOn} instead`;
    }
    case "unfinished":
      return undefined;
  }
}

/**
 * The run's records and where they leave it; undefined when there is no journal to read (removed,
 * never written) or it does not replay: nothing then says the run has moved on.
 */
function replayedRun(
  runs: string,
  runId: string,
): { readonly records: readonly StoredJournalRecord[]; readonly status: RunStatus } | undefined {
  try {
    const { records } = readJournalFile(journalPath(runs, runId));
    return { records, status: replayJournal(records).status };
  } catch {
    return undefined;
  }
}

function lastWaitingRequestId(records: readonly { readonly type: string }[]): string | undefined {
  const waiting = records.findLast((record) => record.type === "run_waiting") as
    { readonly request?: { readonly id?: unknown } } | undefined;
  const id = waiting?.request?.id;
  return typeof id === "string" ? id : undefined;
}
