/**
 * The closing record of a run: finished, cancelled, waiting (written by the call that waits) or
 * failed. A cancelled run carries `history` with every call of its last reply answered, so a
 * conversation goes on knowing what already ran.
 */
import { RunCancelledError, RunWaitingError } from "../common/agent-errors.js";
import { withInterruptedResults } from "./interrupted-calls.js";
import type { Message } from "../ports/messages.js";
import type { RunJournalWriter } from "./run-journal-writer.js";

export async function journaledRun<T extends { readonly finalText: string }>(
  journal: RunJournalWriter,
  history: Message[],
  body: () => Promise<T>,
): Promise<T> {
  let result: T;
  try {
    result = await body();
  } catch (error) {
    if (error instanceof RunCancelledError) {
      await journal.cancelled();
      throw new RunCancelledError(error.message, withInterruptedResults(history));
    }
    if (!(error instanceof RunWaitingError)) await journal.failed(error);
    throw error;
  }
  await journal.finished(result.finalText);
  return result;
}
