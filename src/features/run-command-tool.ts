import { z } from "zod";
import { builtOnce } from "../core/common/built-once.js";
import { TOOL_ARGUMENT_SHAPES } from "./tool-argument-shapes.generated.js";
import { TOOL_PARAMETERS } from "./tool-parameters.generated.js";
import type { ArgvRunner, OutputSpillStore } from "../core/ports/command-runner.js";
import { defineTool, type ToolDefinition } from "../core/tools/tool-definition.js";
import type { ToolResult } from "../core/tools/tool-result.js";
import { RUN_COMMAND } from "../core/grants/run-command-input.js";
import { executeInSandbox } from "../core/grants/execute-in-sandbox.js";
import type { ExecutionEnvironment } from "../core/policy/execution-environment.js";
import {
  DEFAULT_SHELL_MAX_OUTPUT_BYTES,
  DEFAULT_SHELL_TIMEOUT_MS,
  environmentArgument,
  runAsTool,
} from "./shell-tool.js";

export interface RunCommandToolOptions {
  readonly runner: ArgvRunner;
  /** Real path of the workspace: every command runs there. */
  readonly workspace: string;
  readonly timeoutMs?: number;
  readonly maxOutputBytes?: number;
  readonly outputs?: OutputSpillStore;
  /**
   * Where the command would run, asked again just before the spawn (the seed's
   * `executeInSandbox`): anything but an isolated sandbox runs nothing. Required, as `recheck`
   * is: a tool built without them would run a command with neither check.
   */
  readonly environment: ExecutionEnvironment;
  /**
   * Asked just before the spawn, with the call's id and input: a refusal (paired to the call,
   * with its code) when what would run now is not what was approved; undefined to run it.
   */
  readonly recheck: (
    callId: string,
    input: { command: string; args: string[] },
  ) => ToolResult | undefined;
}

/** An argv, never a command line: nothing here is read by a shell. */
/** Built at its first use, when zod loads: the model is shown TOOL_PARAMETERS.run_command. */
export const runCommandSchema = builtOnce(() =>
  z.strictObject({
    command: z.string().min(1).describe("The program, a bare name such as npm (found on PATH)."),
    args: z.array(z.string()).describe('Its arguments, one per element, e.g. ["run", "lint"].'),
  }),
);

/**
 * P04's replacement for `shell`: one program and its arguments, run in the sandbox with the network
 * off, the workspace as the working directory. Outputs and outcomes read as the shell tool's do.
 */
export function createRunCommandTool(
  options: RunCommandToolOptions,
): ToolDefinition<ReturnType<typeof runCommandSchema>> {
  const { runner, workspace } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_SHELL_TIMEOUT_MS;
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_SHELL_MAX_OUTPUT_BYTES;
  return defineTool({
    name: RUN_COMMAND,
    description: [
      "Run one program with its arguments (no shell: no pipes, globbing or variables) in the",
      `sandbox, network off, in the workspace ${workspace}. Only the exact argv lists on the`,
      "workspace's allowlist (its package.json test/lint/typecheck/build scripts and",
      ".agent/commands.json) can run, and each run needs a person's approval, which may come",
      "later: then the run waits. stdout and stderr come back together; each stderr line starts",
      `with [stderr]; the output is cut after ${String(maxOutputBytes / 1024)} KB.`,
    ].join(" "),
    effect: "execute",
    parameters: TOOL_PARAMETERS.run_command,
    argumentShape: TOOL_ARGUMENT_SHAPES.run_command,
    get schema() {
      return runCommandSchema();
    },
    finalArguments: () => ({
      cwd: workspace,
      timeoutMs,
      maxOutputBytes,
      shell: "none (argv)",
      ...environmentArgument(runner.environmentNames),
    }),
    handler: async ({ command, args }, context) => {
      const refused = options.recheck(context.callId, { command, args });
      if (refused !== undefined) return refused;
      const run = (): Promise<ToolResult> =>
        runAsTool(
          (commandOptions) => runner.run([command, ...args], workspace, commandOptions),
          command,
          { timeoutMs, maxOutputBytes, outputs: options.outputs },
          context,
        );
      return executeInSandbox(run, { network: "disabled" }, options.environment);
    },
  });
}
