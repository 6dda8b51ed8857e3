import { z } from "zod";
import { builtOnce } from "../core/common/built-once.js";
import { TOOL_ARGUMENT_SHAPES } from "./tool-argument-shapes.generated.js";
import { TOOL_PARAMETERS } from "./tool-parameters.generated.js";
import {
  CommandStartError,
  type CommandOptions,
  type CommandResult,
  type CommandRunner,
  type OmittedOutput,
  type OutputSpillStore,
} from "../core/ports/command-runner.js";
import {
  defineTool,
  type ToolContext,
  type ToolDefinition,
} from "../core/tools/tool-definition.js";
import { toolError, toolSuccess, type ToolResult } from "../core/tools/tool-result.js";
import { withNoteLines } from "../core/tools/command-notes.js";
import { SANDBOX_NETWORK_OFF_NOTICE } from "./sandbox-network-notice.js";

export const DEFAULT_SHELL_TIMEOUT_MS = 120_000;
export const DEFAULT_SHELL_MAX_OUTPUT_BYTES = 50 * 1024;

export interface ShellToolOptions {
  readonly runner: CommandRunner;
  /** Absolute workspace path: every command runs with it as the working directory. */
  readonly workspace: string;
  readonly timeoutMs?: number;
  readonly maxOutputBytes?: number;
  /** Where a long output is saved whole (`.agent/outputs/<call-id>.log`); absent: only cut. */
  readonly outputs?: OutputSpillStore;
  /** Commands run in the sandbox with the network off: the description says so. */
  readonly networkOff?: boolean;
}

/**
 * No timeout or cwd field: the limits and the directory are the harness's decision, and nothing
 * the model sends can widen them.
 */
/** Built at its first use, when zod loads: the model is shown TOOL_PARAMETERS.shell. */
const shellSchema = builtOnce(() =>
  z.strictObject({
    command: z.string().min(1).describe("The command line to run, exactly as typed in the shell."),
  }),
);

export function createShellTool(
  options: ShellToolOptions,
): ToolDefinition<ReturnType<typeof shellSchema>> {
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
      "Each stderr line starts with [stderr]; a result without an Error line means exit code 0.",
      "A longer output keeps its start and its end and says where the whole of it was saved:",
      "read that file with read_file, in parts.",
      ...(options.networkOff === true ? [SANDBOX_NETWORK_OFF_NOTICE] : []),
    ].join(" "),
    effect: "execute",
    parameters: TOOL_PARAMETERS.shell,
    argumentShape: TOOL_ARGUMENT_SHAPES.shell,
    get schema() {
      return shellSchema();
    },
    finalArguments: () => ({
      cwd: workspace,
      timeoutMs,
      maxOutputBytes,
      shell: runner.shellName,
      ...environmentArgument(runner.environmentNames),
    }),
    handler: ({ command }, context) =>
      runAsTool(
        (commandOptions) => runner.run(command, workspace, commandOptions),
        runner.shellName,
        { timeoutMs, maxOutputBytes, outputs: options.outputs },
        context,
      ),
  });
}

/**
 * What every command tool does around its runner: prove the output store is still ours (a store a
 * command replaced refuses the next command, before it starts), run, turn a start failure into
 * `shell_start_failed`, report the exit code, saved output and the sandbox's notes (for the
 * person, apart from the text), and render the result.
 */
export async function runAsTool(
  run: (options: CommandOptions) => Promise<CommandResult>,
  label: string,
  limits: {
    readonly timeoutMs: number;
    readonly maxOutputBytes: number;
    readonly outputs: OutputSpillStore | undefined;
  },
  context: ToolContext,
): Promise<ToolResult> {
  const { timeoutMs, maxOutputBytes, outputs } = limits;
  let result: CommandResult;
  try {
    outputs?.prepareForCommand();
    result = await run({
      timeoutMs,
      maxOutputBytes,
      ...(context.signal === undefined ? {} : { signal: context.signal }),
      ...(outputs === undefined ? {} : { spill: outputs.spillFor(context.callId) }),
      ...(context.reportProcess === undefined ? {} : { onSpawn: context.reportProcess }),
      ...(context.personApproved === true ? {} : { unapproved: true }),
    });
  } catch (error) {
    if (error instanceof CommandStartError) {
      return toolError("shell_start_failed", startFailure(label, error.message));
    }
    throw error;
  }
  context.reportExecution?.({
    ...(result.exitCode === null ? {} : { exitCode: result.exitCode }),
    ...(result.omitted?.savedTo === undefined ? {} : { savedOutput: result.omitted.savedTo }),
    ...(result.notes === undefined ? {} : { notes: result.notes }),
  });
  return shellToolResult(label, timeoutMs, result);
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
      `Command timed out after ${formatSeconds(timeoutMs)} and was killed with everything it started ${RAN}\n${body}`,
    );
  }
  if (result.exitCode === null) {
    return toolError("shell_cancelled", `Command was cancelled before it finished ${RAN}\n${body}`);
  }
  if (result.exitCode !== 0) {
    return toolError(
      "shell_failed",
      `${seedShellName(shellName)} exited with code ${result.exitCode} ${RAN}\n${body}`,
    );
  }
  return toolSuccess(body);
}

/** The one form, after the fixed text, that says whether a command's side effects may exist. */
export const RAN = "(the command ran)";
const DID_NOT_RUN = "(the command did not run)";

/**
 * The tutorial's PowerShell says `PowerShell exited with code N` and `PowerShell process could
 * not be started`, whichever edition runs (the system prompt names it); other programs by name.
 */
function seedShellName(label: string): string {
  return label.includes("PowerShell") ? "PowerShell" : label;
}

/** `PowerShell process could not be started: <why> (the command did not run)`; others as they were. */
function startFailure(label: string, message: string): string {
  return seedShellName(label) === "PowerShell"
    ? `PowerShell process could not be started: ${message} ${DID_NOT_RUN}`
    : `${message} ${DID_NOT_RUN}`;
}

/** The output as the model reads it, the sandbox's notes after it (after the tail when cut). */
function renderOutput(result: CommandResult): string {
  const notes = result.notes ?? [];
  if (result.truncated && result.omitted !== undefined) {
    const { output, omitted } = result;
    const tail = withNoteLines(omitted.tail, notes);
    const separator = output === "" || output.endsWith("\n") ? "" : "\n";
    const tailSeparator = tail === "" ? "" : "\n";
    return `${output}${separator}${truncationNotice(omitted)}${tailSeparator}${tail}`;
  }
  const output = withNoteLines(result.output, notes);
  if (result.truncated) return `${output}\n[output truncated]`;
  return output === "" ? "(no output)" : output;
}

/**
 * `[output truncated: 1200 bytes (150 lines) left out; the whole output (51234 bytes) is in
 * .agent/outputs/call_1.log]`, between the head and the tail.
 */
export function truncationNotice(omitted: OmittedOutput): string {
  const lines = `${omitted.lines} ${omitted.lines === 1 ? "line" : "lines"}`;
  const left = `[output truncated: ${omitted.bytes} bytes (${lines}) left out`;
  if (omitted.savedTo === undefined) return `${left}; the whole output could not be saved]`;
  if (omitted.savedCutBytes !== undefined) {
    // Over the saved-output cap (output-files.ts): the file is cut too, and says where.
    return `${left}; the output (${omitted.totalBytes} bytes) is in ${omitted.savedTo} without its middle ${omitted.savedCutBytes} bytes, over the harness's cap on a saved output]`;
  }
  return `${left}; the whole output (${omitted.totalBytes} bytes) is in ${omitted.savedTo}]`;
}

function formatSeconds(ms: number): string {
  return `${ms / 1000} s`;
}

function formatBytes(bytes: number): string {
  return bytes % 1024 === 0 ? `${bytes / 1024} KB` : `${bytes} bytes`;
}

/**
 * The environment a command receives, by name only (`HOME,LANG,PATH`): values may be secrets the
 * person passed with --pass-env, so they are never recorded.
 */
export function environmentArgument(names: readonly string[] | undefined): {
  readonly environmentNames?: string;
} {
  return names === undefined ? {} : { environmentNames: names.join(",") };
}
