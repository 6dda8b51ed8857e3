/**
 * Resolved options as the composition root takes them. A run, a resumed run and `agent explain`
 * map their settings here, in one place, so a dry run builds its tool path from exactly the values
 * the run would.
 */
import type {
  Host,
  McpServersSetting,
  ResumePlan,
  ExecutionSettings,
  RunSettings,
} from "../../bootstrap.js";
import type { CliOptions, RUN_OPTIONS } from "../args.js";

/**
 * The run options `executionSettings` is made from: what decides a call (its profile, where
 * commands run, what the harness protects). `agent explain` takes these and no others, so a dry
 * run given the run's flags builds the run's tool path.
 */
export const EXECUTION_FLAGS = Object.freeze([
  "chapter",
  "profile",
  "workspace",
  "state-dir",
  "audit-log",
  "sandbox",
  "network",
  "shell",
  "pass-env",
  "sandbox-unmask",
  "sandbox-limit",
  "command-timeout",
] as const satisfies readonly (keyof typeof RUN_OPTIONS)[]);

/** `workspace`: the real path (workspace.ts). */
export function executionSettings(
  options: CliOptions,
  host: Host,
  workspace: string,
): ExecutionSettings {
  return {
    profile: options.profile,
    workspace,
    host,
    sandbox: options.sandbox,
    network: options.network,
    shell: options.shell,
    passEnv: options.passEnv,
    sandboxUnmask: options.sandboxUnmask,
    sandboxLimits: options.sandboxLimits,
    commandTimeoutMs: options.commandTimeoutMs,
    auditLog: options.auditLog,
    stateDir: options.stateDir,
    ...(options.personalRules === undefined ? {} : { personalRules: options.personalRules }),
  };
}

export function composedRunSettings(
  options: CliOptions,
  host: Host,
  workspace: string,
  startDirectory: string,
  resume: ResumePlan | undefined,
  mcpServers?: McpServersSetting,
): RunSettings {
  return {
    ...executionSettings(options, host, workspace),
    model: {
      name: options.model,
      replay: options.replay,
      replayLenient: options.replayLenient,
      record: options.record,
      requestTimeoutMs: options.requestTimeoutMs,
      retries: options.retries,
    },
    maxTurns: options.maxTurns,
    contextWindow: options.contextWindow,
    startDirectory,
    resume,
    ...(mcpServers === undefined ? {} : { mcpServers }),
  };
}
