/**
 * Node ends a process whose event loop has nothing left to wait on even while a promise (an open
 * prompt, a run) has not settled, and it ends it with status 0. For the agent that would be a
 * silent success with the run unfinished; whatever the cause, it is a failure, and says so.
 */
import { EXIT } from "./exit-codes.js";

export interface ExitingProcess {
  once(event: "beforeExit", listener: () => void): unknown;
  exitCode?: number | string | null | undefined;
}

export const UNSETTLED_MESSAGE =
  "agent: stopped with the command unfinished: nothing was left to wait on\n";

/** Call once at start; `finished` says whether the command has returned its exit code. */
export function failIfLeftUnsettled(
  process: ExitingProcess,
  stderr: NodeJS.WritableStream,
  finished: () => boolean,
): void {
  process.once("beforeExit", () => {
    if (finished()) return;
    stderr.write(UNSETTLED_MESSAGE);
    process.exitCode = EXIT.runFailed;
  });
}
