/**
 * What a run whose approvals are grants (P04) needs beyond chapter 3, assembled in one place so that
 * a run, a resumed run and `agent explain` build the same thing: the allowlist, the grant store,
 * and the sandbox-only argv runner. It reads and creates nothing in the workspace: a run makes
 * `.agent` first (`ensureHarnessDirectory`), a dry run leaves the workspace as it is.
 */
import { loadCommandAllowlist, npmScriptRows } from "../adapters/commands/index.js";
import type { ShellExecution } from "../adapters/execution/index.js";
import type { GrantDependencies } from "./agent-dependencies.js";
import type { ApprovalGrants } from "../core/grants/grant-approval.js";

export interface P04RunInput {
  /** Real path. */
  readonly workspace: string;
  readonly network: boolean;
  /** The decided execution (after `ready`): its argv runner runs only in the sandbox. */
  readonly execution: Pick<ShellExecution, "argvRunner">;
  /** Names the run in the grant store's records (the journal's run id, once there is one). */
  readonly runId: string;
  /** The grant store: the workspace's own (adapters/state), or a dry run's in memory. */
  readonly grants: ApprovalGrants;
  readonly grantTtlMs: number;
  /** The allowlist's argvs, read once per run (`allowedArgvOf`). */
  readonly allowedArgv: readonly (readonly string[])[];
  /** Which variables a command's environment may hold (`commandEnvironmentMayHold`). */
  readonly environmentMayHold: (name: string) => boolean;
}

/** The argvs of the workspace's allowlist (package.json scripts and `.agent/commands.json`). */
export function allowedArgvOf(workspace: string): readonly (readonly string[])[] {
  return loadCommandAllowlist(workspace).commands.map((entry) => entry.argv);
}

export function p04Dependencies(input: P04RunInput): GrantDependencies {
  return {
    argvRunner: input.execution.argvRunner,
    allowedArgv: input.allowedArgv,
    grants: input.grants,
    runId: input.runId,
    network: input.network,
    grantTtlMs: input.grantTtlMs,
    scriptOf: (argv) => npmScriptRows(input.workspace, argv, input.environmentMayHold),
  };
}

/** The workspace's command allowlist and where each entry came from (`agent commands`). */
export { loadCommandAllowlist, refusedNowNotes } from "../adapters/commands/index.js";
