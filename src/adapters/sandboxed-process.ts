import { spawn, type ChildProcess } from "node:child_process";
import type { Readable } from "node:stream";
import type { CommandOptions } from "../core/command-runner.js";
import { BoundedOutput, completeUtf8Length } from "./process-runner.js";
import { SandboxSetupError } from "./sandbox-errors.js";

/** bwrap writes its JSON status lines here; the child's stdio is 0-2. */
export const STATUS_FD = 3;
/** The status lines are a few hundred bytes; anything beyond this is not bwrap talking. */
const MAX_STATUS_BYTES = 64 * 1024;
/**
 * With a PID namespace every process holding the pipes dies with bwrap, so they close at once;
 * the cap only guards against a pipe passed out of the sandbox.
 */
const MAX_DRAIN_AFTER_EXIT_MS = 2_000;
const MAX_TIMER_MS = 2_147_483_647;

export interface SandboxedRun {
  /** The command's own exit code, from bwrap's status; null when we killed it. */
  readonly exitCode: number | null;
  readonly output: string;
  readonly truncated: boolean;
  readonly timedOut: boolean;
}

/**
 * Runs bwrap with an extra pipe for `--json-status-fd` (runProcess offers only stdout and stderr).
 * A run whose status never reports `exit-code` did not reach the command: that is a setup failure,
 * thrown as SandboxSetupError with bwrap's own message, never passed off as the command's `exit 1`.
 * Timeout and abort SIGKILL bwrap; `--die-with-parent` and the PID namespace take every
 * descendant, however it detached, with it.
 */
export function runSandboxedProcess(
  bwrapPath: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  options: CommandOptions,
): Promise<SandboxedRun> {
  assertValidLimits(options);
  if (options.signal?.aborted === true) {
    return Promise.resolve({ exitCode: null, output: "", truncated: false, timedOut: false });
  }
  let child: ChildProcess;
  try {
    child = spawn(bwrapPath, [...args], {
      cwd: "/",
      env: { ...env },
      stdio: ["ignore", "pipe", "pipe", "pipe"],
      shell: false,
      detached: true,
    });
  } catch (error) {
    return Promise.reject(startFailure(bwrapPath, error));
  }
  return supervise(child, bwrapPath, options);
}

function supervise(
  child: ChildProcess,
  bwrapPath: string,
  options: CommandOptions,
): Promise<SandboxedRun> {
  const [, stdout, stderr, status] = child.stdio;
  if (!isReadable(stdout) || !isReadable(stderr) || !isReadable(status)) {
    child.kill("SIGKILL");
    return Promise.reject(new SandboxSetupError(`Could not open pipes to ${bwrapPath}`));
  }
  return new Promise((resolve, reject) => {
    const output = new BoundedOutput(options.maxOutputBytes);
    const statusText = new BoundedOutput(MAX_STATUS_BYTES);
    const pipes = [
      collect(stdout, output),
      collect(stderr, output),
      collect(status, statusText, { characterSafe: false }),
    ];
    let started = false;
    let killed = false;
    let timedOut = false;
    let settled = false;

    const kill = (): void => {
      if (killed) return;
      killed = true;
      killBwrap(child);
    };
    const timer = setTimeout(
      () => {
        timedOut = true;
        kill();
      },
      Math.min(options.timeoutMs, MAX_TIMER_MS),
    );
    options.signal?.addEventListener("abort", kill, { once: true });
    const stopWatching = (): void => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", kill);
    };

    child.once("spawn", () => {
      started = true;
    });
    child.on("error", (error) => {
      if (started || settled) return;
      settled = true;
      stopWatching();
      for (const pipe of pipes) pipe.stop();
      reject(startFailure(bwrapPath, error));
    });
    child.once("exit", (code, signal) => {
      stopWatching();
      let drainTimer: NodeJS.Timeout | undefined;
      const drainCap = new Promise<void>((done) => {
        drainTimer = setTimeout(done, MAX_DRAIN_AFTER_EXIT_MS);
      });
      void Promise.race([Promise.all(pipes.map((pipe) => pipe.closed)), drainCap]).then(() => {
        clearTimeout(drainTimer);
        if (settled) return;
        settled = true;
        for (const pipe of pipes) pipe.stop();
        const captured = output.result();
        const commandExit = exitCodeFromStatus(statusText.result().output);
        if (killed) {
          resolve({ exitCode: null, ...captured, timedOut });
        } else if (commandExit !== undefined) {
          resolve({ exitCode: commandExit, ...captured, timedOut });
        } else {
          reject(setupFailure(captured.output, code, signal));
        }
      });
    });
  });
}

function killBwrap(child: ChildProcess): void {
  const pid = child.pid;
  if (pid === undefined) return;
  try {
    // bwrap leads its own process group (detached); the sandboxed tree is in a new session and a
    // new PID namespace, and dies with bwrap.
    process.kill(-pid, "SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
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
  code: number | null,
  signal: NodeJS.Signals | null,
): SandboxSetupError {
  const said = output.trim().split("\n").slice(-3).join(" / ");
  const how = signal === null ? `exit code ${String(code)}` : `signal ${signal}`;
  return new SandboxSetupError(
    `The sandbox (bwrap) could not start the command (${how})${said === "" ? "" : `: ${said}`}`,
  );
}

function startFailure(bwrapPath: string, error: unknown): SandboxSetupError {
  const reason = error instanceof Error ? error.message : String(error);
  return new SandboxSetupError(`Could not start the sandbox ${bwrapPath}: ${reason}`);
}

interface Collector {
  readonly closed: Promise<void>;
  stop(): void;
}

/** Appends a pipe's bytes, forwarding only whole UTF-8 characters so pipes never split one. */
function collect(
  stream: Readable,
  into: BoundedOutput,
  { characterSafe }: { characterSafe: boolean } = { characterSafe: true },
): Collector {
  let pending: Buffer = Buffer.alloc(0);
  let stopped = false;
  const closed = new Promise<void>((done) => {
    stream.once("close", done);
    stream.once("end", done);
    stream.on("error", () => {
      done();
    });
  });
  stream.on("data", (chunk: Buffer) => {
    if (stopped || into.full) return;
    const data = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    const complete = characterSafe ? completeUtf8Length(data) : data.length;
    pending = Buffer.from(data.subarray(complete));
    into.append(data.subarray(0, complete));
  });
  return {
    closed,
    stop() {
      if (stopped) return;
      stopped = true;
      if (pending.length > 0) into.append(pending);
      stream.removeAllListeners("data");
      stream.on("error", () => undefined);
      stream.destroy();
    },
  };
}

function isReadable(stream: unknown): stream is Readable {
  return typeof stream === "object" && stream !== null && "on" in stream && "destroy" in stream;
}

function assertValidLimits(options: CommandOptions): void {
  if (!Number.isFinite(options.timeoutMs) || options.timeoutMs <= 0) {
    throw new RangeError(`timeoutMs must be a positive number, got ${String(options.timeoutMs)}`);
  }
  if (!Number.isSafeInteger(options.maxOutputBytes) || options.maxOutputBytes < 0) {
    throw new RangeError(
      `maxOutputBytes must be a non-negative integer, got ${String(options.maxOutputBytes)}`,
    );
  }
}
