import {
  CommandStartError,
  type CommandOptions,
  type CommandResult,
} from "../../core/ports/command-runner.js";
import { captureOptions, runProcess, unmarked, type StatusPipeResult } from "../process/index.js";
import { inheritedDescriptors } from "./inherited-descriptors.js";
import { SandboxSetupError } from "./sandbox-errors.js";

/** bwrap writes its JSON status lines here; the child's stdio is 0-2. */
export const STATUS_FD = 3;
/** bwrap reads the seccomp program from here (`--seccomp 4`) to EOF and closes it before setup. */
export const SECCOMP_FD = 4;
/** The status lines are a few hundred bytes; anything beyond this is not bwrap talking. */
const MAX_STATUS_BYTES = 64 * 1024;

/**
 * The whole environment of what runs on the host before the sandbox: the cgroup entry shell and
 * bwrap itself. Nothing of the command's: a shell started with the command's environment would
 * read `$BASH_ENV` (or import `BASH_FUNC_*` functions) on the host, and the loader `LD_PRELOAD`,
 * before any sandbox exists. Neither needs a variable: every program is named by absolute path,
 * and the command's own environment reaches it through bwrap's `--clearenv` and `--setenv`.
 */
export const HOST_SIDE_ENVIRONMENT: Readonly<Record<string, string>> = Object.freeze({});

/**
 * Runs bwrap through runProcess with a status pipe for `--json-status-fd` and the seccomp program
 * on an input pipe for `--seccomp` (the args must name both fds, and carry the command's
 * environment as `--setenv`: the host side gets HOST_SIDE_ENVIRONMENT only). A run whose status
 * never reports `exit-code` did not reach the command: that is a setup failure, thrown as
 * SandboxSetupError with bwrap's own message, never passed off as the command's `exit 1`.
 * Timeout and abort SIGKILL bwrap's process group; `--die-with-parent` and the PID namespace take
 * every descendant, however it detached, with it. `entry`, when given, is the argv that starts
 * first and executes bwrap in its place (cgroup-run.ts: it enters the command's cgroup).
 */
export async function runSandboxedProcess(
  bwrapPath: string,
  args: readonly string[],
  options: CommandOptions,
  seccompFilter: Uint8Array,
  entry: readonly string[] = [],
): Promise<CommandResult> {
  const [entryProgram, ...entryArgs] = entry;
  let run: StatusPipeResult;
  try {
    run = await runProcess({
      executable: entryProgram ?? bwrapPath,
      displayName: `the sandbox ${bwrapPath}`,
      args: entryProgram === undefined ? args : [...entryArgs, bwrapPath, ...args],
      cwd: "/",
      env: HOST_SIDE_ENVIRONMENT,
      timeoutMs: options.timeoutMs,
      maxOutputBytes: options.maxOutputBytes,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.onOutput === undefined ? {} : { onOutput: options.onOutput }),
      killTree: { kind: "process-group" },
      ...captureOptions(options),
      statusPipe: { fd: STATUS_FD, maxBytes: MAX_STATUS_BYTES },
      inputPipe: { fd: SECCOMP_FD, data: seccompFilter },
      // bwrap passes every open descriptor on to the command; cover the harness's inherited ones.
      nullDescriptors: inheritedDescriptors(),
    });
  } catch (error) {
    if (error instanceof CommandStartError) {
      throw new SandboxSetupError(error.message, { cause: error });
    }
    throw error;
  }
  const { status, exitSignal, ...captured } = run;
  // Killed (timeout or abort): whatever the status says, the command did not finish.
  if (captured.exitCode === null) return captured;
  const commandExit = exitCodeFromStatus(status);
  if (commandExit === undefined) throw setupFailure(captured.output, captured.exitCode, exitSignal);
  return { ...captured, exitCode: commandExit };
}

/** The last `"exit-code"` bwrap reported; undefined when the command never started. */
export function exitCodeFromStatus(text: string): number | undefined {
  let exitCode: number | undefined;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof parsed !== "object" || parsed === null || !("exit-code" in parsed)) continue;
    const value = parsed["exit-code"];
    if (typeof value === "number" && Number.isSafeInteger(value)) exitCode = value;
  }
  return exitCode;
}

function setupFailure(
  output: string,
  code: number,
  signal: NodeJS.Signals | null,
): SandboxSetupError {
  const said = unmarked(output).trim().split("\n").slice(-3).join(" / ");
  const how = signal === null ? `exit code ${String(code)}` : `signal ${signal}`;
  return new SandboxSetupError(
    `The sandbox (bwrap) could not start the command (${how})${said === "" ? "" : `: ${said}`}`,
  );
}
