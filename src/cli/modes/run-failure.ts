/**
 * How a run that did not reach its answer ends, in every mode: one `agent: ` line (or the
 * waiting message) on stderr, the exit code, and for a script the closing JSON object.
 */
import { ConfigurationError } from "../../core/common/configuration-error.js";
import { firstLineOfError } from "../../core/common/one-line.js";
import {
  AgentLimitError,
  AgentRunError,
  RunCancelledError,
  RunWaitingError,
} from "../../core/common/agent-errors.js";
import { EXIT } from "../exit-codes.js";
import { sayAgent } from "../terminal/render/agent-line.js";
import { waitingMessage } from "../terminal/approval/waiting-message.js";
import type { RunTerminal } from "./run-terminal.js";
import type { ScriptOutput, ScriptStatus } from "./script-output.js";

export function runFailed(
  error: unknown,
  terminal: RunTerminal,
  runId: string | undefined,
  script: ScriptOutput | undefined,
): number {
  const { io } = terminal;
  terminal.reporter.dispose();
  const ended = (code: number, status: ScriptStatus, message: string): number => {
    script?.finish({ runId, status, exitCode: code, error: message });
    return code;
  };
  const fail = (code: number, status: ScriptStatus, message: string): number => {
    sayAgent(io.stderr, message);
    return ended(code, status, message);
  };
  if (error instanceof RunCancelledError || terminal.cancel.signal.aborted) {
    return fail(EXIT.cancelled, "cancelled", "cancelled");
  }
  if (error instanceof RunWaitingError) {
    io.stderr.write(waitingMessage(error, runId));
    return ended(EXIT.waiting, "waiting", firstLineOfError(error));
  }
  if (error instanceof AgentLimitError && runId !== undefined) {
    // Say how to go on: resume continues the same run with a fresh budget of turns.
    const message = `${firstLineOfError(error)}; to go on: agent resume ${runId} (a fresh budget of ${String(error.maxTurns)} turns)`;
    return fail(EXIT.runFailed, "failed", message);
  }
  const message =
    error instanceof ConfigurationError || error instanceof AgentRunError
      ? firstLineOfError(error)
      : `unexpected error: ${firstLineOfError(error)}`;
  const code = error instanceof ConfigurationError ? EXIT.config : EXIT.runFailed;
  return fail(code, "failed", message);
}
