/**
 * One `run_command` call put to the P04 policy alone (`authorizeP04`), in a workspace whose
 * allowlist and script reader the test gives: what the policy decides before anyone is asked.
 */
import type { P04Context } from "../../src/core/grants/policy-context.js";
import { authorizeP04 } from "../../src/core/grants/policy.js";
import { ToolRegistry } from "../../src/core/tools/tool-registry.js";
import { createRunCommandTool } from "../../src/features/run-command-tool.js";
import { commandChecksThatRefuse } from "./permission-fakes.js";

export function authorizeRunCommand(
  workspace: string,
  argv: readonly [string, ...string[]],
  allowedArgv: readonly (readonly string[])[],
  scriptOf: NonNullable<P04Context["scriptOf"]>,
): ReturnType<typeof authorizeP04> {
  const context: P04Context = {
    cwd: workspace,
    realWorkspaceRoot: workspace,
    allowedArgv,
    network: "disabled",
    sandbox: { kind: "isolated", network: "disabled", label: "sandbox: bwrap" },
    now: 0,
    requestTtlMs: 1000,
    newRequestId: () => "req_0000000000000001",
    classifyPath: () => "outside",
    scriptOf,
  };
  // The tool is only prepared, never run: both of its last checks refuse.
  const tool = createRunCommandTool({
    runner: { run: () => Promise.reject(new Error("never runs here")) },
    workspace,
    ...commandChecksThatRefuse(),
  });
  const [command, ...args] = argv;
  const prepared = new ToolRegistry([tool]).snapshot().prepare({
    id: "call_1",
    name: "run_command",
    arguments: JSON.stringify({ command, args }),
  });
  if (!prepared.ok) throw new Error(prepared.result.content);
  return authorizeP04(prepared.call, context);
}
