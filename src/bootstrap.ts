/**
 * The composition root: the one place that turns a chapter profile into a running agent. It builds
 * the permission policy itself, so no caller can hand in a looser one.
 */
import {
  NodeWorkspaceFileSystem,
  NodeWorkspaceWriteBoundary,
} from "./adapters/filesystem/index.js";
import { AgentRunner, type AgentObserver } from "./core/agent-runner.js";
import type { ApprovalProvider } from "./core/approval.js";
import type { AuditSink } from "./core/audit.js";
import type { CommandRunner, OutputSpillStore } from "./core/command-runner.js";
import type { ExecutionEnvironment } from "./core/execution-environment.js";
import type { ModelClient } from "./core/model.js";
import type { RunJournal } from "./core/journal-records.js";
import { PermissionPolicy } from "./core/permissions.js";
import { PermissionRule } from "./core/permission-rule.js";
import { isCanonicalProfile, type ChapterProfile } from "./core/profiles.js";
import { ToolRegistry } from "./core/tool-registry.js";
import { createBuiltinTools } from "./features/builtin-tools.js";

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
  /** The run's write-ahead journal; absent, the run lives in memory only (tests). */
  readonly journal?: RunJournal;
}

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
  if (!isCanonicalProfile(profile)) {
    throw new BootstrapError("Unknown profile: use P01, P02 or P03 from src/core/profiles.ts");
  }
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
        ? { fileSystem: new NodeWorkspaceFileSystem(deps.workspace, protectedFiles(deps)) }
        : {}),
    }),
  );
  return new AgentRunner({
    model: deps.model,
    registry,
    maxTurns: deps.maxTurns ?? DEFAULT_MAX_TURNS,
    systemPrompt: systemPromptFor(profile, deps),
    policy,
    ...(deps.observer === undefined ? {} : { observer: deps.observer }),
    ...(deps.journal === undefined ? {} : { journal: deps.journal }),
    ...(deps.auditSink === undefined ? {} : { outcomes: deps.auditSink }),
    ...(deps.executionEnvironment === undefined
      ? {}
      : { executionEnvironment: deps.executionEnvironment }),
  });
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

function systemPromptFor(profile: ChapterProfile, deps: AgentDependencies): string {
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
