/**
 * What a run knows of its context before it starts: the project's AGENTS.md files (read once,
 * now) and the model's window (`--context-window`, else by the model's name). Also how the
 * conversation's `/compact`, `/clear` and `/context` reach the agent.
 */
import {
  instructionsStatus,
  loadProjectInstructions,
  type ProjectInstructions,
} from "../adapters/instructions/index.js";
import { defaultContextWindow } from "../core/context/context-budget.js";
import { formatContextReport } from "../core/context/context-report.js";
import type { AgentRunner } from "../core/runner/agent-runner.js";
import { defaultWorkspace, type CliOptions } from "./args.js";
import type { CliIo } from "./cli-io.js";
import type { ContextCommands } from "./terminal/context-commands.js";

export interface RunContextSetup {
  readonly instructions: ProjectInstructions;
  readonly contextWindow: number;
  /** For the first status line: the files loaded, and any not read with why. */
  readonly status: string | undefined;
}

export function contextSetup(
  options: CliOptions,
  io: CliIo,
  workspace: string,
  model: string,
): RunContextSetup {
  const instructions = loadProjectInstructions({
    workspace,
    // Where the person started the agent: the directory npm was run from under `npm run agent`.
    startDirectory: defaultWorkspace(io.env, io.cwd),
    env: io.env,
    platform: io.platform,
  });
  return {
    instructions,
    contextWindow: options.contextWindow ?? defaultContextWindow(model),
    status: instructionsStatus(instructions),
  };
}

export function contextCommandsOf(agent: AgentRunner): ContextCommands {
  return {
    compactNow: (history, signal) => agent.compactHistory(history, signal),
    clearHistory: (history) => agent.clearHistory(history),
    describeContext: (history) => formatContextReport(agent.describeContext(history)),
  };
}

/**
 * `agent resume` goes on with the system message its journal recorded; when the AGENTS.md files
 * on disk now differ from what the run began with, the person is told so.
 */
export function instructionsChangeNotice(
  recordedDigest: string | undefined,
  io: CliIo,
  workspace: string,
): string | undefined {
  const now = loadProjectInstructions({
    workspace,
    startDirectory: defaultWorkspace(io.env, io.cwd),
    env: io.env,
    platform: io.platform,
  }).digest;
  if (now === recordedDigest) return undefined;
  return "the project instructions (AGENTS.md) changed since this run began; it goes on with the instructions it began with (a new run reads the new ones)";
}
