/**
 * What the seeds' snippets use without defining it, bound to our modules so the snippets run as
 * written: `observation(kind, reason)`, and `executeInSandbox(run, { network: "disabled" })` in
 * an isolated sandbox (ours also asks where it runs; these tests stand in for the sandbox).
 */
import { executeInSandbox as executeInOurSandbox } from "../../src/core/grants/execute-in-sandbox.js";
import type { SandboxRequirement } from "../../src/core/grants/execute-in-sandbox.js";
import type { ToolExecutionResult } from "../../src/core/common/tool-execution-result.js";
import type { ToolResult } from "../../src/core/tools/tool-result.js";

export const TEST_SANDBOX = Object.freeze({
  kind: "isolated",
  network: "disabled",
  label: "sandbox: test (network off)",
} as const);

export function executeInSandbox(
  run: () => Promise<ToolResult>,
  requirement: SandboxRequirement,
): Promise<ToolResult> {
  return executeInOurSandbox(run, requirement, { status: () => TEST_SANDBOX });
}

/** The seed's `observation(kind, reason)`: what the model reads, `Error [kind]: reason`. */
export function observation(kind: string, reason: string): ToolExecutionResult {
  return { type: "observation", callId: "", output: `Error [${kind}]: ${reason}` };
}
