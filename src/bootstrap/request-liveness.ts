/**
 * Whether a stored approval request can still be used: only while its run waits on it. A run that
 * has since finished (completed, failed, cancelled) will never consume a grant for it, and a run
 * that waits on a newer request (a changed script asked again, under another call) has moved on.
 * Read from the run's own journal, the record of what it waits on. An approval for either would
 * say "one run of exactly that action" and grant nothing.
 */
import { journalPath, readJournalFile } from "../adapters/journal/index.js";
import type { StoredRequest } from "../adapters/state/index.js";
import { replayJournal } from "../core/journal/journal-replay.js";

/** Why `stored` can no longer be used; undefined while its run may still use it. */
export function whyRequestIsStale(runs: string, stored: StoredRequest): string | undefined {
  let records;
  try {
    records = readJournalFile(journalPath(runs, stored.runId)).records;
  } catch {
    // No journal to read (removed, or never written): nothing says the run has moved on.
    return undefined;
  }
  const { status } = replayJournal(records);
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

function lastWaitingRequestId(records: readonly { readonly type: string }[]): string | undefined {
  const waiting = records.findLast((record) => record.type === "run_waiting") as
    { readonly request?: { readonly id?: unknown } } | undefined;
  const id = waiting?.request?.id;
  return typeof id === "string" ? id : undefined;
}
