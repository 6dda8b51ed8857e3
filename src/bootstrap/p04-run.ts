/**
 * What a chapter-4 run needs beyond chapter 3, assembled in one place so that starting a run and
 * resuming one (issue 16's `agent resume`) build the same thing: the allowlist, the grant store,
 * and the sandbox-only argv runner.
 */
import {
  ensureHarnessDirectory,
  loadCommandAllowlist,
  npmScriptText,
} from "../adapters/commands/index.js";
import type { ShellExecution } from "../adapters/execution/index.js";
import { DEFAULT_GRANT_TTL_MS } from "../adapters/state/index.js";
import type { P04Dependencies } from "./build-agent.js";
import { openApprovalStore } from "./approval-state.js";
import type { Host } from "./host.js";

export interface P04RunInput {
  /** Real path. */
  readonly workspace: string;
  readonly network: boolean;
  readonly io: Host;
  /** The decided execution (after `ready`): its argv runner runs only in the sandbox. */
  readonly execution: Pick<ShellExecution, "argvRunner">;
  /** Names the run in the grant store's records (the journal's run id, once there is one). */
  readonly runId: string;
  /** `--state-dir`; else `$AGENT_STATE_DIR` or the platform's state directory. */
  readonly stateDir?: string;
}

export function p04Dependencies(input: P04RunInput): P04Dependencies {
  ensureHarnessDirectory(input.workspace);
  return {
    argvRunner: input.execution.argvRunner,
    allowedArgv: loadCommandAllowlist(input.workspace).commands.map((entry) => entry.argv),
    grants: openApprovalStore(input.workspace, input.stateDir, input.io.env, input.io.platform),
    runId: input.runId,
    network: input.network,
    grantTtlMs: DEFAULT_GRANT_TTL_MS,
    scriptOf: (argv) => npmScriptText(input.workspace, argv),
  };
}
