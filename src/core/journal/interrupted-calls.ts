/**
 * What the model is told about calls a run did not see through: one stopped by Ctrl-C before it
 * ran, and one that was running when the process died. The live runner and the journal's replay
 * both use these, so a resumed conversation reads exactly as the live one did.
 */
import { RunCancelledError, RunWaitingError } from "../common/agent-errors.js";
import type { Decided } from "./call-facts.js";
import { toolMessage, type Message } from "../ports/messages.js";
import { toolError } from "../tools/tool-result.js";

export const CANCELLED_BEFORE_RUNNING = toolError(
  "cancelled",
  "The run was cancelled before this call ran",
);

/** A call that started before the process died, told to the model on resume. */
const UNKNOWN_MESSAGE =
  "The agent stopped while this call was running, so it may or may not have taken effect; check its effect before retrying it";
export const EXECUTION_UNKNOWN = toolError("execution_unknown", UNKNOWN_MESSAGE);

/**
 * The same, for a call that ran on the host: nothing there is sure to end with the agent (the
 * orphan guard reaches only the command's process group), so the model is told to look.
 */
export const EXECUTION_UNKNOWN_ON_HOST = toolError(
  "execution_unknown",
  `${UNKNOWN_MESSAGE}. It ran on the host with no sandbox: the command, or what it started in the background, may still be running; check for it before running it again`,
);

/**
 * The history with a result for each call of the last reply that has none yet: `cancelled` for
 * one that never started (the one stopped at its prompt, and those after it); `unknown` for one
 * that started (`started` says which), since it may have taken effect.
 */
export function withInterruptedResults(
  history: readonly Message[],
  started: ReadonlySet<string> = new Set(),
): Message[] {
  const paired = [...history];
  const last = paired.findLastIndex((message) => message.role === "assistant");
  const reply = paired[last];
  if (reply?.role !== "assistant") return paired;
  const answered = new Set(
    paired
      .slice(last + 1)
      .flatMap((message) => (message.role === "tool" ? [message.toolCallId] : [])),
  );
  for (const call of reply.toolCalls) {
    if (answered.has(call.id)) continue;
    const result = started.has(call.id) ? EXECUTION_UNKNOWN : CANCELLED_BEFORE_RUNNING;
    paired.push(toolMessage(result.content, call.id));
  }
  return paired;
}

/**
 * The facts of a call stopped at its confirmation, nothing of it run: Ctrl-C at the prompt ends the
 * run, and a wait for an approval given later (chapter 4) stops it. Any other error is no stop.
 */
export function stoppedAtConfirmation(error: unknown): Decided | undefined {
  if (error instanceof RunWaitingError) {
    const result = toolError("approval_waiting", error.message);
    return { result, executed: "no", status: "waiting", boundary: "confirmation" };
  }
  if (error instanceof RunCancelledError) {
    const result = CANCELLED_BEFORE_RUNNING;
    return { result, executed: "no", status: "cancelled", boundary: "confirmation" };
  }
  return undefined;
}
