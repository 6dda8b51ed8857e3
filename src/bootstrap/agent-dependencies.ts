/**
 * What the composition root is given to build an agent: the types only, so the builders that read
 * them (tools, policy, grant path, prompt) share them without importing one another.
 */
import type { HostFilesSource } from "../adapters/filesystem/index.js";
import type { AgentObserver } from "../core/runner/agent-runner.js";
import type { ApprovalProvider } from "../core/policy/approval.js";
import type { AuditSink } from "../core/policy/audit.js";
import type { ArgvRunner, CommandRunner, OutputSpillStore } from "../core/ports/command-runner.js";
import type { ApprovalGrants } from "../core/grants/grant-approval.js";
import type { ExecutionEnvironment } from "../core/policy/execution-environment.js";
import type { WorkspaceFileSystem } from "../core/ports/filesystem.js";
import type { ModelClient } from "../core/ports/model.js";
import type { RunJournal } from "../core/journal/journal-records.js";
import type { ToolDefinition } from "../core/tools/tool-definition.js";
import type { PersonalRuleSpec } from "../core/policy/personal-rules.js";
import type {
  RunApprovalPrompt,
  RunGrant,
  RunGrantObserver,
  RunGrants,
} from "../core/policy/run-grants.js";

export interface AgentDependencies {
  readonly model: ModelClient;
  /** Absolute path of the workspace; every file path and shell cwd is relative to it. */
  readonly workspace: string;
  /**
   * Absolute real paths of the files the harness writes itself (audit log, recording), decided
   * once by the caller that opened them: the file tools and the P03 boundary refuse writes to them.
   */
  readonly harnessFiles?: readonly string[];
  /**
   * What the host loads or runs later (bootstrap's host-files.ts), by real path, asked for at the
   * first write checked: the file tools and every chapter's boundary refuse writes to them.
   */
  readonly hostFiles?: HostFilesSource;
  readonly commandRunner: CommandRunner;
  /**
   * What the file tools (and `grep`) read and write through; absent, the workspace on disk
   * (NodeWorkspaceFileSystem, refusing the files above). Offline tests inject a double here, as
   * they do the approver and the audit sink. The boundary still judges every path first.
   */
  readonly fileSystem?: WorkspaceFileSystem;
  readonly approvalProvider?: ApprovalProvider;
  readonly auditSink?: AuditSink;
  readonly executionEnvironment?: ExecutionEnvironment;
  readonly maxTurns?: number;
  readonly observer?: AgentObserver;
  /**
   * How long one `shell` or `run_command` call may run (`--command-timeout`); absent, the tools'
   * default. The tool's description, its final arguments (what the approval and the audit show) and the kill
   * all take this one value.
   */
  readonly commandTimeoutMs?: number;
  /** Where long shell outputs are saved whole (`.agent/outputs`); absent: they are only cut. */
  readonly outputs?: OutputSpillStore;
  /** A profile whose approvals are grants (P04): what it needs beyond chapter 3. */
  readonly grants?: GrantDependencies;
  /** The run's write-ahead journal; absent, the run lives in memory only (tests). */
  readonly journal?: RunJournal;
  /** Shell commands run in the sandbox with the network off: the model is told so once. */
  readonly sandboxNetworkOff?: boolean;
  // --- context: what the model is told of the project, and how much history it can hold ---
  /** The project's AGENTS.md section (adapters/instructions), appended to the system prompt. */
  readonly instructions?: string;
  /** The model's context window in tokens; absent, the history is never compacted. */
  readonly contextWindow?: number;
  // --- end context ---
  /**
   * A profile whose answers are `once-or-run` (`[y/N/a]`): the prompt that can say `a`, the
   * person's own rules (from their settings file only), and who hears of each run grant. Without a
   * prompt, the plain approver asks as chapter 3 does.
   */
  readonly runAnswers?: RunAnswerDependencies;
  /** The person's MCP servers' tools, started for a profile that lists them (profile.mcpTools). */
  readonly externalTools?: ExternalTools;
}

export interface RunAnswerDependencies {
  readonly prompt?: RunApprovalPrompt;
  readonly personalRules?: readonly PersonalRuleSpec[];
  /** What a command binds (an npm script's text), read at each decision. */
  readonly boundScript?: (command: string) => string | undefined;
  readonly observer?: RunGrantObserver;
  /** A resumed run's grants from its journal, held again by their keys. */
  readonly restoredGrants?: { readonly grants: readonly RunGrant[]; readonly issued: number };
  /** Filled in by the composition root: the run's grants, for `/permissions`. */
  readonly onGrants?: (grants: RunGrants) => void;
}

/** What the composition root hands on of the started MCP servers (adapters/mcp). */
export interface ExternalTools {
  readonly tools: readonly {
    readonly definition: ToolDefinition;
    readonly server: string;
    readonly tool: string;
  }[];
  /** Whether the settings file's allowlist names this server's tool. */
  readonly allowed: (server: string, tool: string) => boolean;
  /** One line each for a server that failed and a tool left out: the model reads them. */
  readonly notes: readonly string[];
}

/** The tutorial's name for what the composition root is given. */
export type BuildDependencies = AgentDependencies;

/**
 * Approvals that wait (P04). `approvalProvider` (the terminal) is given only when a person is there
 * to answer; without it an `ask` persists its request and the run waits.
 */
export interface GrantDependencies {
  /** Runs argv commands in the sandbox only (execution's `argvRunner`). */
  readonly argvRunner: ArgvRunner;
  /** The harness's allowlist (adapters/commands), read once at start. */
  readonly allowedArgv: readonly (readonly string[])[];
  readonly grants: ApprovalGrants;
  /** Names this run in the grant store's records. */
  readonly runId: string;
  /** `--network`: the default-deny policy then refuses every command. */
  readonly network: boolean;
  readonly grantTtlMs: number;
  /** How long a request waits for its answer. */
  readonly requestTtlMs?: number;
  /** What an allowed argv runs, read at each call (adapters/commands' npmScriptRows). */
  readonly scriptOf?: (argv: readonly string[]) => string | readonly string[] | undefined;
  readonly now?: () => number;
}
