import type { Message } from "../ports/messages.js";
import { waitingFor, type WaitingResult } from "./tool-execution-result.js";

/** Why a run ended without a final answer. The CLI maps every one to exit code 1. */
export class AgentRunError extends Error {
  override readonly name: string = "AgentRunError";
}

export class AgentLimitError extends AgentRunError {
  override readonly name = "AgentLimitError";
  constructor(readonly maxTurns: number) {
    super(
      `The agent reached its limit of ${String(maxTurns)} ${maxTurns === 1 ? "turn" : "turns"} without a final answer`,
    );
  }
}

export class IncompleteModelReplyError extends AgentRunError {
  override readonly name = "IncompleteModelReplyError";
}

/** The model provider failed (HTTP status, connection, malformed reply); the message is one line. */
export class ModelProviderError extends AgentRunError {
  override readonly name = "ModelProviderError";
}

/** The person cancelled the run (Ctrl-C). The CLI exits 130. */
export class RunCancelledError extends AgentRunError {
  override readonly name = "RunCancelledError";
  /**
   * Set by the runner: the history up to the cancellation, every tool call paired with a result
   * (a call that never ran with a `cancelled` one), so a conversation can go on from it knowing
   * what already ran.
   */
  readonly history: readonly Message[] | undefined;

  constructor(message = "Run cancelled", history?: readonly Message[]) {
    super(message);
    this.history = history;
  }
}

/** Checked between steps: a run aborted by the person stops before the next one starts. */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw new RunCancelledError();
}

/**
 * The run stops to wait for a person's approval given later; nothing of the call ran. `waiting`
 * is the second seed's `{type: "waiting", requestId, reason: "approval_required"}`.
 */
export class RunWaitingError extends AgentRunError {
  override readonly name = "RunWaitingError";
  readonly waiting: WaitingResult;
  constructor(
    readonly callId: string,
    readonly request: Readonly<Record<string, unknown>> & { readonly id: string },
    message: string,
    /** The run's earlier request for this call that this one replaces (its action changed). */
    readonly replaces?: string,
  ) {
    super(message);
    this.waiting = waitingFor(request.id);
  }
}

/**
 * A journal record could not be made durable: the step it describes did not happen, and the run
 * stops (fail closed: a step that is not journaled could not be recovered after a crash).
 */
export class JournalWriteError extends AgentRunError {
  override readonly name = "JournalWriteError";
}
