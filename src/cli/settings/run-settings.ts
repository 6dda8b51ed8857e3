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
import type { CliOptions } from "../args.js";

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
