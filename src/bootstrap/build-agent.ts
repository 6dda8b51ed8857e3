/**
 * The composition root: the one place that turns a chapter profile into a running agent. It builds
 * the permission policy itself, so no caller can hand in a looser one.
 */
import {
  NodeWorkspaceFileSystem,
  NodeWorkspaceWriteBoundary,
  type WorkspaceFileSystemOptions,
} from "../adapters/filesystem/index.js";
import { randomBytes } from "node:crypto";
import { AgentRunner, type AgentObserver } from "../core/runner/agent-runner.js";
import type { ApprovalProvider } from "../core/policy/approval.js";
import type { AuditSink } from "../core/policy/audit.js";
import type { ArgvRunner, CommandRunner, OutputSpillStore } from "../core/ports/command-runner.js";
import { GrantApprovalProvider, type ApprovalGrants } from "../core/grants/grant-approval.js";
import { ApprovedActions } from "../core/grants/approved-actions.js";
import { P04Authorizer } from "../core/grants/p04-authorizer.js";
import { recheckApprovedCommand } from "../core/grants/p04-recheck.js";
import type { P04Context } from "../core/grants/policy.js";
import {
  commandsEndWithTheirCalls,
  type ExecutionEnvironment,
} from "../core/policy/execution-environment.js";
import type { ModelClient } from "../core/ports/model.js";
import type { RunJournal } from "../core/journal/journal-records.js";
import { PermissionPolicy } from "../core/policy/permissions.js";
import { PermissionRule } from "../core/policy/permission-rule.js";
import { isCanonicalProfile, P04, type ChapterProfile } from "../core/profiles.js";
import type { ToolDefinition } from "../core/tools/tool-definition.js";
import { ToolRegistry } from "../core/tools/tool-registry.js";
import { createBuiltinTools } from "../features/builtin-tools.js";
import { createFetchUrlTool } from "../features/fetch-url-tool.js";
import { createFileTools } from "../features/file-tools.js";
import { createRunCommandTool } from "../features/run-command-tool.js";

export interface AgentDependencies {
  readonly model: ModelClient;
  /** Absolute path of the workspace; every file path and shell cwd is relative to it. */
  readonly workspace: string;
  /**
   * Absolute real paths of the files the harness writes itself (audit log, recording), decided
   * once by the caller that opened them: the file tools and the P03 boundary refuse writes to them.
   */
  readonly harnessFiles?: readonly string[];
  readonly commandRunner: CommandRunner;
  readonly approvalProvider?: ApprovalProvider;
  readonly auditSink?: AuditSink;
  readonly executionEnvironment?: ExecutionEnvironment;
  readonly maxTurns?: number;
  readonly observer?: AgentObserver;
  readonly shellTimeoutMs?: number;
  /** Where long shell outputs are saved whole (`.agent/outputs`); absent: they are only cut. */
  readonly outputs?: OutputSpillStore;
  /** P04 only: what it needs beyond chapter 3 (see `P04Dependencies`). */
  readonly p04?: P04Dependencies;
  /** The run's write-ahead journal; absent, the run lives in memory only (tests). */
  readonly journal?: RunJournal;
}

/**
 * P04: approvals that wait. `approvalProvider` (the terminal) is given only when a person is there
 * to answer; without it an `ask` persists its request and the run waits.
 */
export interface P04Dependencies {
  /** Runs argv commands in the sandbox only (execution's `argvRunner`). */
  readonly argvRunner: ArgvRunner;
  /** The harness's allowlist (adapters/commands), read once at start. */
  readonly allowedArgv: readonly (readonly string[])[];
  readonly grants: ApprovalGrants;
  /** Names this run in the grant store's records. */
  readonly runId: string;
  /** `--network`: P04 then refuses every command. */
  readonly network: boolean;
  readonly grantTtlMs: number;
  /** How long a request waits for its answer. */
  readonly requestTtlMs?: number;
  /** The script an allowed argv runs, read at each call (adapters/commands' npmScriptText). */
  readonly scriptOf?: (argv: readonly string[]) => string | undefined;
  readonly now?: () => number;
}

export const DEFAULT_REQUEST_TTL_MS = 24 * 60 * 60 * 1000;

export class BootstrapError extends Error {
  override readonly name = "BootstrapError";
}

export const DEFAULT_MAX_TURNS = 20;

export const CONFIRM_FILE_WRITE = new PermissionRule({
  name: "confirm-file-write",
  behavior: "ask",
  reason: "File writes require explicit approval from chapter 3 onward",
  matches: (request) => request.toolName === "write_file" || request.toolName === "edit_file",
});

export function buildAgent(profile: ChapterProfile, deps: AgentDependencies): AgentRunner {
  const { registry, policy } = buildToolPath(profile, deps);
  return new AgentRunner({
    model: deps.model,
    registry,
    maxTurns: deps.maxTurns ?? DEFAULT_MAX_TURNS,
    systemPrompt: systemPromptFor(profile, deps),
    policy,
    workspace: deps.workspace,
    identity: { profile: profile.id, ...(deps.p04 === undefined ? {} : { runId: deps.p04.runId }) },
    ...(deps.observer === undefined ? {} : { observer: deps.observer }),
    ...(deps.journal === undefined ? {} : { journal: deps.journal }),
    ...(deps.auditSink === undefined ? {} : { outcomes: deps.auditSink }),
    // Seed 004's outcome notes; the tutorial pins chapters 1–3's whole messages.
    ...(profile === P04 ? { tellOutcomes: true } : {}),
    ...(deps.executionEnvironment === undefined
      ? {}
      : { executionEnvironment: deps.executionEnvironment }),
  });
}

/**
 * The tools and the policy of a profile: what `buildAgent` runs, and what `agent explain` dry-runs
 * with recorders for approver and audit.
 */
export function buildToolPath(
  profile: ChapterProfile,
  deps: AgentDependencies,
): { readonly registry: ToolRegistry; readonly policy: PermissionPolicy } {
  if (!isCanonicalProfile(profile)) {
    throw new BootstrapError("Unknown profile: use P01, P02 or P03 from src/core/profiles.ts");
  }
  if (profile === P04) return buildP04(deps);
  const policy = buildPolicy(profile, deps);
  const registry = new ToolRegistry(
    createBuiltinTools({
      shell: {
        runner: deps.commandRunner,
        workspace: deps.workspace,
        ...(deps.shellTimeoutMs === undefined ? {} : { timeoutMs: deps.shellTimeoutMs }),
        ...(deps.outputs === undefined ? {} : { outputs: deps.outputs }),
      },
      ...(profile.capabilities.has("files")
        ? { fileSystem: new NodeWorkspaceFileSystem(deps.workspace, workspaceFiles(deps)) }
        : {}),
    }),
  );
  return { registry, policy };
}

/**
 * P04: `run_command` (argv, sandbox only) in place of `shell`, the file tools, and `fetch_url`
 * declared only to be denied; the policy is the seed's default deny, asked right after the
 * workspace boundary, and an `ask` is answered by a grant for exactly that action, or waits.
 */
function buildP04(deps: AgentDependencies): {
  readonly registry: ToolRegistry;
  readonly policy: PermissionPolicy;
} {
  const p04 = deps.p04;
  if (p04 === undefined) throw new BootstrapError("P04 needs its dependencies (deps.p04)");
  if (deps.auditSink === undefined) {
    throw new BootstrapError("auditSink is required for chapter 3 or later");
  }
  const now = p04.now ?? Date.now;
  const environment = deps.executionEnvironment;
  const boundary = new NodeWorkspaceWriteBoundary(protectedFiles(deps));
  const context = (): P04Context => ({
    cwd: deps.workspace,
    realWorkspaceRoot: deps.workspace,
    allowedArgv: p04.allowedArgv,
    network: p04.network ? "enabled" : "disabled",
    sandbox: environment?.status() ?? {
      kind: "unavailable",
      reason: "no execution environment was given",
    },
    now: now(),
    requestTtlMs: p04.requestTtlMs ?? DEFAULT_REQUEST_TTL_MS,
    newRequestId: () => `req_${randomBytes(8).toString("hex")}`,
    classifyPath: (effect, path) => boundary.classifyNow(deps.workspace, effect, path),
    ...(p04.scriptOf === undefined ? {} : { scriptOf: p04.scriptOf }),
  });
  // Each consumed grant's digest, checked again against what would run just before the spawn.
  const approved = new ApprovedActions();
  const policy = new PermissionPolicy({
    workspaceBoundary: { workspace: deps.workspace, boundary, reads: true },
    authorizer: new P04Authorizer(context),
    approver: new GrantApprovalProvider({
      grants: p04.grants,
      runId: p04.runId,
      grantTtlMs: p04.grantTtlMs,
      approved,
      ...(deps.approvalProvider === undefined ? {} : { interactive: deps.approvalProvider }),
    }),
    audit: deps.auditSink,
    ...(environment === undefined ? {} : { executionEnvironment: environment }),
  });
  const tools: ToolDefinition[] = [
    createRunCommandTool({
      runner: p04.argvRunner,
      workspace: deps.workspace,
      recheck: (callId, input) => recheckApprovedCommand(callId, input, approved, context()),
      ...(deps.shellTimeoutMs === undefined ? {} : { timeoutMs: deps.shellTimeoutMs }),
      ...(deps.outputs === undefined ? {} : { outputs: deps.outputs }),
    }),
    ...createFileTools({
      fileSystem: new NodeWorkspaceFileSystem(deps.workspace, workspaceFiles(deps)),
    }),
    createFetchUrlTool(),
  ];
  return { registry: new ToolRegistry(tools), policy };
}

function buildPolicy(profile: ChapterProfile, deps: AgentDependencies): PermissionPolicy {
  const environment =
    deps.executionEnvironment === undefined
      ? {}
      : { executionEnvironment: deps.executionEnvironment };
  if (profile.capabilities.has("policy")) {
    if (deps.approvalProvider === undefined) {
      throw new BootstrapError("approvalProvider is required for chapter 3 or later");
    }
    if (deps.auditSink === undefined) {
      throw new BootstrapError("auditSink is required for chapter 3 or later");
    }
    return new PermissionPolicy({
      workspaceBoundary: {
        workspace: deps.workspace,
        boundary: new NodeWorkspaceWriteBoundary(protectedFiles(deps)),
      },
      rules: [CONFIRM_FILE_WRITE],
      approver: deps.approvalProvider,
      audit: deps.auditSink,
      ...environment,
    });
  }
  // Before chapter 3 the only participants are the shell default, the execution environment (a
  // required sandbox that cannot be had denies) and the person at the prompt. There is always a
  // policy: without an approver, the shell default's `ask` becomes a denial, never a free pass.
  return new PermissionPolicy({
    ...(deps.approvalProvider === undefined ? {} : { approver: deps.approvalProvider }),
    ...environment,
  });
}

function protectedFiles(deps: AgentDependencies): { harnessFiles: readonly string[] } {
  return { harnessFiles: deps.harnessFiles ?? [] };
}

/**
 * A command run in the sandbox ends with its call, processes and all; a command on the host (or
 * a runner handed in without an execution environment) may leave one running that swaps
 * directories while glob walks, so glob then lists through held descriptors. The answer is asked
 * at each glob and covers this run's commands only: a process left by an earlier unsandboxed run
 * has the user's rights anyway.
 */
function workspaceFiles(deps: AgentDependencies): WorkspaceFileSystemOptions {
  return {
    ...protectedFiles(deps),
    noProcessRunsAlongside: () => commandsEndWithTheirCalls(deps.executionEnvironment),
  };
}

function systemPromptFor(profile: ChapterProfile, deps: AgentDependencies): string {
  if (profile === P04) {
    return [
      "You are a careful coding agent working in one workspace directory.",
      "Use run_command (one program and its arguments, no shell) and the file tools (read_file,",
      'write_file, edit_file, glob). File paths are relative to the workspace; never use absolute paths or "..".',
      "Only the exact commands on the workspace's allowlist can run, each after a person approves it,",
      "in a sandbox without network; fetch_url is always refused. A denied call returns an error",
      "result: do not retry the same call, explain or choose another way.",
      "When the task is done, reply with a short summary and no tool call.",
    ].join("\n");
  }
  const tools = profile.capabilities.has("files")
    ? "the shell tool and the file tools (read_file, write_file, edit_file, glob)"
    : "the shell tool";
  return [
    "You are a careful coding agent working in one workspace directory.",
    // No absolute path here: the prompt stays the same on every machine, so recordings replay.
    `The shell (${deps.commandRunner.shellName}) starts in the workspace.`,
    `Use ${tools}. File paths are relative to the workspace; never use absolute paths or "..".`,
    "Every shell command is shown to the person for approval first; a denied call returns an",
    "error result: do not retry the same call, explain or choose another way.",
    "When the task is done, reply with a short summary and no tool call.",
  ].join("\n");
}
