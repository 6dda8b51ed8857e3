/**
 * What a run is, as plain values (never the CLI's I/O object): a run, a resumed run and
 * `agent explain` hand these to the composition root, and the terminal hands in its pieces as
 * ports (`RunPorts`).
 */
import type { SandboxMode } from "../adapters/execution/index.js";
import type { ResourceLimits } from "../adapters/sandbox/index.js";
import type { ShellChoice } from "../adapters/shell/index.js";
import type { ApprovalProvider } from "../core/policy/approval.js";
import type { PersonalRuleSpec } from "../core/policy/personal-rules.js";
import type { AuditSink } from "../core/policy/audit.js";
import type { WorkspaceFileSystem } from "../core/ports/filesystem.js";
import type { CommandRunner } from "../core/ports/command-runner.js";
import type { ApprovalMode, ChapterProfile } from "../core/profiles.js";
import type { AgentObserver } from "../core/runner/agent-runner.js";
import type { Host } from "./host.js";
import type { ResumePlan } from "./open/journal-session.js";
import type { ModelSettings } from "./model/model-client.js";
import type { ModelRetryNotice } from "../adapters/model/index.js";
import type { McpServersSetting } from "../adapters/settings/index.js";

export type { ModelRetryNotice };

/** Where and how commands run, and what the harness protects: shared by a run and its dry run. */
export interface ExecutionSettings {
  readonly profile: ChapterProfile;
  /** Real path. */
  readonly workspace: string;
  readonly host: Host;
  readonly sandbox: SandboxMode;
  readonly network: boolean;
  readonly shell: ShellChoice;
  readonly passEnv: readonly string[];
  /** `--sandbox-unmask`: credential paths the sandbox shows after all. */
  readonly sandboxUnmask: readonly string[];
  /** `--sandbox-limit` / AGENT_SANDBOX_LIMITS: every sandboxed command's resource limits. */
  readonly sandboxLimits: ResourceLimits | undefined;
  /**
   * `--command-timeout` or the settings file, in ms: how long one shell or run_command call may
   * run. The tool states it, the call's final arguments carry it, and the kill uses it.
   */
  readonly commandTimeoutMs: number;
  /** `--audit-log` or AGENT_AUDIT_LOG, as given. */
  readonly auditLog: string | undefined;
  /** `--state-dir`; else AGENT_STATE_DIR or the platform default. */
  readonly stateDir: string | undefined;
  /** The person's own rules, from their settings file; used where the profile says so. */
  readonly personalRules?: readonly PersonalRuleSpec[];
}

export interface RunSettings extends ExecutionSettings {
  readonly model: ModelSettings;
  readonly maxTurns: number;
  /** `--context-window` or AGENT_CONTEXT_WINDOW; undefined: known from the model's name. */
  readonly contextWindow: number | undefined;
  /** Where the person started the agent: AGENTS.md files are read from the root down to it. */
  readonly startDirectory: string;
  /** From `agent resume`: the run, locked; the composition root owns the lock from here on. */
  readonly resume?: ResumePlan | undefined;
  /**
   * The person's settings file's MCP servers (never the workspace's): started only for a profile
   * that lists their tools, at the run's start, and stopped with it.
   */
  readonly mcpServers?: McpServersSetting | undefined;
}

/** The terminal's pieces, handed in: bootstrap never imports the CLI. */
export interface RunPorts {
  /** Where the agent works, under which profile and which model it asks, said before anything starts. */
  readonly announce?: (
    profile: string,
    modelDescription: string,
    instructions: string | undefined,
  ) => void;
  /** Once the sandbox check has decided where commands run (e.g. to warn of a fallback). */
  readonly onExecutionDecided?: (
    fallbackReason: string | undefined,
    notices: readonly string[],
  ) => void;
  /**
   * Who answers an `ask`: for `terminal` approvals the person's [y/N]; for `grants` the person at
   * a terminal, or nobody (undefined: the run waits). `preview` reads the file a write would change.
   */
  readonly approver: (
    mode: ApprovalMode,
    preview: WorkspaceFileSystem,
  ) => ApprovalProvider | undefined;
  /** Shows each decision (after the durable audit log has it). */
  readonly terminalAudit: AuditSink;
  readonly observer?: AgentObserver;
  readonly onTextDelta?: (text: string) => void;
  /** Before each retry of a model request, as its wait begins (the terminal says so on stderr). */
  readonly onModelRetry?: (notice: ModelRetryNotice) => void;
  /** One line for each MCP server that failed to start and each of its tools left out. */
  readonly onMcpNotice?: (line: string) => void;
  /** Wraps the command runner (the terminal's command status line). */
  readonly aroundRunner?: (runner: CommandRunner) => CommandRunner;
}
