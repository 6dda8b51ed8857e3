/**
 * The loop's side of the write-ahead journal: each record is awaited before its step, and a record
 * that cannot be written stops the run (fail closed). A record whose step changes nothing outside
 * the harness may be marked `effectFree` (see AppendOptions): it is awaited until written, and is
 * on disk before any later step with an effect. The records that close a run are best effort:
 * the run is ending anyway, and a missing closing record reads as "unfinished", which is safe.
 */
import { JournalWriteError } from "../common/agent-errors.js";
import type { AppendOptions, JournalRecord, RunJournal } from "./journal-records.js";
import { firstLineOfError } from "../common/one-line.js";

export async function journalStep(
  journal: RunJournal | undefined,
  record: JournalRecord,
  options?: AppendOptions,
): Promise<void> {
  if (journal === undefined) return;
  try {
    await (options === undefined ? journal.append(record) : journal.append(record, options));
  } catch (error) {
    throw new JournalWriteError(
      `The run journal could not be written, so the agent stopped before the step it records (${record.type}): ${firstLineOfError(error)}`,
    );
  }
}

export async function journalClosing(
  journal: RunJournal | undefined,
  record: JournalRecord,
): Promise<void> {
  try {
    await journal?.append(record);
  } catch {
    // Nothing to do: without its closing record the run lists as unfinished and can be resumed.
  }
}
