/**
 * The composition root of `agent explain`: the tool path a run of the same settings would build,
 * with the same protected paths, the same execution environment and the same policy. It differs
 * only in what it is handed: an approver and an audit that record, and a grant store in memory.
 * Nothing is executed, and no harness file, journal or grant is created.
 */
import { shellCommandBinding } from "../adapters/commands/index.js";
import { WorkspaceOutputStore } from "../adapters/filesystem/index.js";
import type { ApprovalProvider } from "../core/policy/approval.js";
import type { AuditSink } from "../core/policy/audit.js";
import type { PermissionPolicy } from "../core/policy/permissions.js";
import type { ToolRegistry } from "../core/tools/tool-registry.js";
import { buildToolPath, DEFAULT_MAX_TURNS } from "./build-agent.js";
import { DryRunGrants } from "./dry-run-grants.js";
import { existingRealPath, harnessPaths, plannedRealPath } from "./harness-paths.js";
import { assertHomeWorkspaceAllowed } from "./home-workspace.js";
import { hostFilesOnce, sandboxHostFiles } from "./host-files.js";
import { allowedArgvOf, p04Dependencies } from "./p04-run.js";
import { startRunExecution } from "./execution/run-execution.js";
import { stateRootFor } from "./open/run-store.js";
import type { ExecutionSettings } from "./run-settings.js";
import { commandEnvironmentMayHold } from "../adapters/shell/index.js";

export interface ExplainedToolPath {
  readonly registry: ToolRegistry;
  readonly policy: PermissionPolicy;
}

/** Builds the tool path once per pair of recorders (explain asks it once for `y`, once for `n`). */
export type ToolPathFor = (approver: ApprovalProvider, audit: AuditSink) => ExplainedToolPath;

const DRY_RUN_GRANT_TTL_MS = 60_000;

export async function composeExplain(settings: ExecutionSettings): Promise<ToolPathFor> {
  const { profile, workspace, host } = settings;
  // Decided once: the variables a command's environment may hold, which make reads (bindings).
  const environmentMayHold = (name: string): boolean =>
    commandEnvironmentMayHold(name, { passEnv: settings.passEnv, platform: host.platform });
  // Where the run would refuse to start, so does its dry run.
  if (profile.homeWorkspace === "refused") {
    assertHomeWorkspaceAllowed(workspace, host, settings.stateDir);
  }
  const stateRoot = existingRealPath(stateRootFor(settings.stateDir, host));
  const harnessFiles = harnessPaths({
    auditLog: settings.auditLog === undefined ? undefined : plannedRealPath(settings.auditLog),
    outputs: WorkspaceOutputStore.open(workspace).realPath,
    stateRoot,
  });
  const hostPaths = hostFilesOnce(host, workspace);
  // Where commands would run, decided as a run would (the probe runs `true`, nothing else).
  const execution = await (
    await startRunExecution(settings, harnessFiles, stateRoot === undefined ? [] : [stateRoot], {
      hostFiles: sandboxHostFiles(workspace, hostPaths),
    })
  ).ready;
  const allowedArgv = profile.approvals === "grants" ? allowedArgvOf(workspace) : [];
  return (approver, audit) => {
    const grants =
      profile.approvals === "grants"
        ? p04Dependencies({
            workspace,
            environmentMayHold,
            allowedArgv,
            network: settings.network,
            execution,
            runId: "explain",
            grants: new DryRunGrants(),
            grantTtlMs: DRY_RUN_GRANT_TTL_MS,
          })
        : undefined;
    return buildToolPath(profile, {
      model: { complete: () => Promise.reject(new Error("a dry run asks no model")) },
      workspace,
      harnessFiles,
      hostFiles: hostPaths,
      commandRunner: execution.runner,
      executionEnvironment: execution.environment,
      maxTurns: DEFAULT_MAX_TURNS,
      commandTimeoutMs: settings.commandTimeoutMs,
      approvalProvider: approver,
      auditSink: audit,
      ...(grants === undefined ? {} : { grants }),
      runAnswers: {
        personalRules: settings.personalRules ?? [],
        boundScript: (command) => shellCommandBinding(workspace, command, environmentMayHold),
      },
    });
  };
}
