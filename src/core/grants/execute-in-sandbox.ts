/**
 * The second seed's last step, `executeInSandbox(() => prepared.execute(toolContext), { network:
 * "disabled" })`: an approved command runs only in an isolated sandbox whose network is as
 * required (off). The policy already denied it otherwise; both are asked again just before the
 * spawn, because the environment may have changed while the person answered. Nothing runs when
 * either says no.
 */
import { environmentLabel, type ExecutionEnvironment } from "../policy/execution-environment.js";
import { toolError, type ToolResult } from "../tools/tool-result.js";
import { P04_DENIALS } from "./policy-decision.js";

/** What the seed asks of the sandbox: no network (P04's policy denies a run with `--network`). */
export interface SandboxRequirement {
  readonly network: "disabled";
}

export async function executeInSandbox(
  execute: () => Promise<ToolResult>,
  requirement: SandboxRequirement,
  environment: ExecutionEnvironment,
): Promise<ToolResult> {
  let status;
  try {
    status = environment.status();
  } catch {
    return toolError(P04_DENIALS.sandboxUnavailable, "the sandbox could not be checked");
  }
  if (status.kind !== "isolated") {
    return toolError(
      P04_DENIALS.sandboxUnavailable,
      `commands run only in the sandbox, and there is none (${environmentLabel(status)})`,
    );
  }
  if (status.network !== requirement.network) {
    return toolError(
      P04_DENIALS.sandboxUnavailable,
      `commands run only in a sandbox with the network ${requirement.network}, and this one has it ${status.network} (${status.label})`,
    );
  }
  return execute();
}
