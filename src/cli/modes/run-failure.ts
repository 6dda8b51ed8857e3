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
import { DEFAULT_MAX_TURNS } from "../../bootstrap.js";
import { EXIT } from "../exit-codes.js";
import { sayAgent } from "../terminal/render/agent-line.js";
import { waitingMessage } from "../terminal/approval/waiting-message.js";
import type { RunTerminal } from "./run-terminal.js";
import type { ScriptOutput, ScriptStatus } from "./script-output.js";

/**
 * The turn limit's words, then how to go on with a fresh budget of the same size. Resume takes
 * `--max-turns` as given to it (the journal does not record it, docs/settings.md), so a budget
 * other than the default is part of the command.
 */
export function turnLimitMessage(error: AgentLimitError, runId: string): string {
  const turns = error.maxTurns;
  const flag = turns === DEFAULT_MAX_TURNS ? "" : ` --max-turns ${String(turns)}`;
  const budget = `${String(turns)} ${turns === 1 ? "turn" : "turns"}`;
  return `${firstLineOfError(error)}; to go on: agent resume ${runId}${flag} (a fresh budget of ${budget})`;
}

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
    script?.finish({
      runId,
      status: "waiting",
      exitCode: EXIT.waiting,
      error: firstLineOfError(error),
      waiting: { ...error.waiting, callId: error.callId },
    });
    return EXIT.waiting;
  }
  if (error instanceof AgentLimitError && runId !== undefined) {
    return fail(EXIT.runFailed, "failed", turnLimitMessage(error, runId));
  }
  const message =
    error instanceof ConfigurationError || error instanceof AgentRunError
      ? firstLineOfError(error)
      : `unexpected error: ${firstLineOfError(error)}`;
  const code = error instanceof ConfigurationError ? EXIT.config : EXIT.runFailed;
  return fail(code, "failed", message);
}
