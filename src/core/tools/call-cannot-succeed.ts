import type { PreparedToolCall } from "./prepared-tool-call.js";
import type { ToolRegistrySnapshot } from "./tool-registry.js";
import type { ToolResult } from "./tool-result.js";

/**
 * Thrown by a permission request's `beforeAsking` when the tool's precheck finds the call cannot
 * succeed (an edit whose old_string occurs four times): nobody is asked, nothing runs, and the
 * model reads the tool's own error. It passes through the policy as a cancelled prompt does.
 */
export class CallCannotSucceedError extends Error {
  override readonly name = "CallCannotSucceedError";
  readonly result: ToolResult;

  constructor(result: ToolResult) {
    super(result.content);
    this.result = result;
  }
}

/**
 * The tool's precheck, as a permission request's `beforeAsking` (the run's and `agent explain`'s
 * alike): a call that cannot succeed throws CallCannotSucceedError with the tool's own error.
 */
export async function failIfCannotSucceed(
  snapshot: ToolRegistrySnapshot,
  call: PreparedToolCall,
): Promise<void> {
  const doomed = await snapshot.precheck(call);
  if (doomed !== undefined) throw new CallCannotSucceedError(doomed);
}
