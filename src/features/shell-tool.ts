import { z } from "zod";
import {
  CommandStartError,
  type CommandResult,
  type CommandRunner,
} from "../core/command-runner.js";
import { defineTool, type ToolDefinition } from "../core/tool-definition.js";
import { toolError, toolSuccess, type ToolResult } from "../core/tool-result.js";

export const DEFAULT_SHELL_TIMEOUT_MS = 120_000;
export const DEFAULT_SHELL_MAX_OUTPUT_BYTES = 50 * 1024;

export interface ShellToolOptions {
  readonly runner: CommandRunner;
  /** Absolute workspace path: every command runs with it as the working directory. */
  readonly workspace: string;
  readonly timeoutMs?: number;
  readonly maxOutputBytes?: number;
}

/**
 * No timeout or cwd field: the limits and the directory are the harness's decision, and nothing
 * the model sends can widen them.
 */
const shellSchema = z.strictObject({
  command: z.string().min(1).describe("The command line to run, exactly as typed in the shell."),
});

export function createShellTool(options: ShellToolOptions): ToolDefinition<typeof shellSchema> {
  const { runner, workspace } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_SHELL_TIMEOUT_MS;
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_SHELL_MAX_OUTPUT_BYTES;
  return defineTool({
    name: "shell",
    description: [
      `Run one command in ${runner.shellName}, with the workspace ${workspace} as the working`,
      `directory. Use ${runner.shellName} syntax. stdout and stderr come back together, cut after`,
      `${formatBytes(maxOutputBytes)}; the command and everything it started are killed after`,
      `${formatSeconds(timeoutMs)}. Nothing is read from stdin, so interactive programs cannot work.`,
    ].join(" "),
    effect: "execute",
    schema: shellSchema,
    handler: async ({ command }, context) => {
      let result: CommandResult;
      try {
        result = await runner.run(command, workspace, {
          timeoutMs,
          maxOutputBytes,
          ...(context.signal === undefined ? {} : { signal: context.signal }),
        });
      } catch (error) {
        if (error instanceof CommandStartError) {
          return toolError("shell_start_failed", error.message);
        }
        throw error;
      }
      if (result.exitCode !== null) context.reportExitCode?.(result.exitCode);
      return shellToolResult(runner.shellName, timeoutMs, result);
    },
  });
}

/** What the model reads for one finished command. */
export function shellToolResult(
  shellName: string,
  timeoutMs: number,
  result: CommandResult,
): ToolResult {
  const body = renderOutput(result);
  if (result.timedOut) {
    return toolError(
      "shell_timeout",
      `Command timed out after ${formatSeconds(timeoutMs)} and was killed with everything it started\n${body}`,
    );
  }
  if (result.exitCode === null) {
    return toolError("shell_cancelled", `Command was cancelled before it finished\n${body}`);
  }
  if (result.exitCode !== 0) {
    return toolError("shell_failed", `${shellName} exited with code ${result.exitCode}\n${body}`);
  }
  return toolSuccess(body);
}

function renderOutput(result: CommandResult): string {
  if (result.truncated) return `${result.output}\n[output truncated]`;
  return result.output === "" ? "(no output)" : result.output;
}

function formatSeconds(ms: number): string {
  return `${ms / 1000} s`;
}

function formatBytes(bytes: number): string {
  return bytes % 1024 === 0 ? `${bytes / 1024} KB` : `${bytes} bytes`;
}
