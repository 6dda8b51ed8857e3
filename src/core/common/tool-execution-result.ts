/**
 * The second seed's `ToolExecutionResult`: what executing one call gives its loop, an observation
 * for the model or a wait for a person's approval. Our loop carries the observation as a
 * `ToolResult` paired with its call id, and a wait as `RunWaitingError.waiting`, in this shape.
 */
export type ToolExecutionResult =
  | { readonly type: "observation"; readonly callId: string; readonly output: string }
  | { readonly type: "waiting"; readonly requestId: string; readonly reason: "approval_required" };

export type WaitingResult = Extract<ToolExecutionResult, { readonly type: "waiting" }>;

export function waitingFor(requestId: string): WaitingResult {
  return Object.freeze({ type: "waiting", requestId, reason: "approval_required" });
}
