/**
 * Who hears of a run's grants (`a` at `[y/N/a]`): the journal, before a grant holds, with the key
 * that makes its action that action, so `agent resume` of this run holds it again; and for a
 * revocation, the journal first (a resume must never hold it again), then the audit log.
 */
import type { AuditSink } from "../core/policy/audit.js";
import type { JournalRecord } from "../core/journal/journal-records.js";
import type { RunGrant, RunGrantObserver } from "../core/policy/run-grants.js";

export function runGrantJournal(
  journal: { append(record: JournalRecord): Promise<void> },
  auditSink: AuditSink,
): RunGrantObserver {
  return {
    granted: (grant) => journal.append(grantRecord("granted", grant)),
    revoked: async (grant) => {
      await journal.append(grantRecord("revoked", grant));
      await auditSink.recordRevocation?.(grant);
    },
  };
}

function grantRecord(action: "granted" | "revoked", grant: RunGrant): JournalRecord {
  return {
    type: "run_grant",
    action,
    grant: grant.id,
    tool: grant.toolName,
    arguments: grant.arguments,
    ...(grant.environment === undefined ? {} : { environment: grant.environment }),
    key: grant.key,
  };
}
