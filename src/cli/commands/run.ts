/**
 * One run, new or resumed (`resume`: from `agent resume`, which picked and locked it): settings →
 * the terminal's ports → the composition root → one mode → the exit code. Every step is
 * journaled under the workspace's state directory before it happens.
 */
import {
  composeRun,
  passEnvNotices,
  type ComposedRun,
  type McpServersSetting,
  type ResumePlan,
} from "../../bootstrap.js";
import { defaultWorkspace, type CliOptions } from "../args.js";
import type { CliIo } from "../cli-io.js";
import { conversationMode } from "../modes/conversation.js";
import { oneShotMode } from "../modes/one-shot.js";
import { runFailed } from "../modes/run-failure.js";
import { RunTerminal } from "../modes/run-terminal.js";
import { bothObservers, ScriptOutput, scriptOutputMode } from "../modes/script-output.js";
import { composedRunSettings } from "../settings/run-settings.js";
import { resolveWorkspace } from "../settings/workspace.js";
import { sayAgent } from "../terminal/render/agent-line.js";

export async function runAgent(
  options: CliOptions,
  io: CliIo,
  resume: ResumePlan | undefined,
  /** The settings file's `mcpServers`: only the person's own file configures them. */
  mcpServers?: McpServersSetting,
): Promise<number> {
  const terminal = new RunTerminal(options, io);
  // A script reads stdout: --output-format json or stream-json, one observer for it.
  const script =
    options.outputFormat === "text" ? undefined : new ScriptOutput(io.stdout, options.outputFormat);
  for (const notice of passEnvNotices(options.passEnv, io.env, io.platform)) {
    sayAgent(io.stderr, `warning: ${notice}`);
  }
  let run: ComposedRun | undefined;
  try {
    const workspace = workspaceOf(options, resume);
    const host = { env: io.env, platform: io.platform };
    run = await composeRun(
      composedRunSettings(
        options,
        host,
        workspace,
        defaultWorkspace(io.env, io.cwd),
        resume,
        mcpServers,
      ),
      terminal.ports(
        workspace,
        script === undefined ? terminal.reporter : bothObservers(terminal.reporter, script),
      ),
    );
    if (script !== undefined) return await scriptOutputMode(run, terminal, script, options.prompt);
    // On a terminal a resumed run goes on as a conversation once it has its answer.
    const resumed = run.session.resumed !== undefined;
    if (options.prompt === undefined && (!resumed || terminal.interactive)) {
      return await conversationMode(run, terminal);
    }
    return await oneShotMode(run, terminal, options.prompt);
  } catch (error) {
    return runFailed(error, terminal, run?.session.runId, script);
  } finally {
    run?.close();
  }
}

/** The run's workspace; a resumed run's lock is let go when there is none. */
function workspaceOf(options: CliOptions, resume: ResumePlan | undefined): string {
  try {
    return resolveWorkspace(options.workspace);
  } catch (error) {
    resume?.lock.release();
    throw error;
  }
}
