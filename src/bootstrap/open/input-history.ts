/**
 * The conversation's input history, kept across sessions in the state directory. Opened here,
 * like every adapter; a file that cannot be used safely (a link, a FIFO, too large) is no reason
 * to refuse the conversation, so the caller gets the problem to say once instead of a throw.
 */
import { InputHistoryFile, inputHistoryPath } from "../../adapters/state/index.js";
import { firstLineOfError } from "../../core/common/one-line.js";

export type InputHistory = InputHistoryFile;

export type OpenedInputHistory =
  | { readonly store: InputHistory; readonly problem?: undefined }
  | { readonly store?: undefined; readonly problem: string };

export function openInputHistory(stateRoot: string): OpenedInputHistory {
  try {
    return { store: InputHistoryFile.open(stateRoot) };
  } catch (error) {
    return { problem: `${inputHistoryPath(stateRoot)}: ${firstLineOfError(error)}` };
  }
}
