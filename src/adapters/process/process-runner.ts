import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, openSync, statSync } from "node:fs";
import { constants as osConstants } from "node:os";
import { Readable, Writable } from "node:stream";
import { BoundedOutput } from "./bounded-output.js";
import { CapturedOutput } from "./captured-output.js";
import { errorCode } from "../filesystem/index.js";
import { killProcessTree, type KillTreeStrategy } from "./kill-tree.js";
import { startOrphanGuard } from "./orphan-guard.js";
import { errorMessage } from "../../core/common/one-line.js";
import { displayHook } from "./display-hook.js";
import { drainAfterExit, StreamReader } from "./stream-reader.js";
import { TrailingBlanks } from "./trailing-blanks.js";
import {
  CommandStartError,
  type CommandResult,
  type OutputSpill,
} from "../../core/ports/command-runner.js";

export interface ProcessSpec {
  /** Absolute path: a bare name would be looked up in the child's cwd first on Windows. */
  readonly executable: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** The child's whole environment; nothing is inherited from this process. */
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly signal?: AbortSignal;
  /**
   * Called with stdout and stderr as they arrive, for display (at most every 50 ms, with what came
   * meanwhile; all of it before the result), never captured twice.
   */
  readonly onOutput?: (text: string) => void;
  /** Where the whole output goes once it overflows `maxOutputBytes`. */
  readonly spill?: OutputSpill;
  /** Values replaced by `[redacted]` in the output and the spill file. */
  readonly secrets?: readonly string[];
  /** Called once the child exists, with its pid (see CommandOptions.onSpawn). */
  readonly onSpawn?: (pid: number) => void;
  readonly killTree: KillTreeStrategy;
  /** How start failures name the program, e.g. `the sandbox /usr/bin/bwrap`; else `executable`. */
  readonly displayName?: string;
  /** An extra pipe on fd 3 whose bytes come back apart from the output (bwrap's status fd). */
  readonly statusPipe?: StatusPipe;
  /** An extra pipe on fd 4 that the child reads: written whole and closed right after spawn. */
  readonly inputPipe?: InputPipe;
  /**
   * Descriptors this process inherited without close-on-exec that the child must get as
   * /dev/null (read-only) instead: spawn would pass them on as they are. Those the stdio and the
   * pipes above already take are theirs.
   */
  readonly nullDescriptors?: readonly number[];
  /**
   * Kill the command's process group if this process dies while it runs (orphan-guard.ts): for
   * host runs, which nothing else ends with the harness. Process groups only (POSIX).
   */
  readonly guardAgainstOrphans?: boolean;
}

export interface InputPipe {
  /** The child's end; the fd after the status pipe's (which is ignored when not asked for). */
  readonly fd: 4;
  /**
   * Bytes to write, then end-of-file. Keep it far below the pipe buffer (64 KiB on Linux): the
   * write must not depend on the child reading, e.g. bwrap's seccomp program (a few hundred bytes),
   * which bwrap reads to EOF while parsing its arguments.
   */
  readonly data: Uint8Array;
}

export interface StatusPipe {
  /** The child's end; only the first fd past stdio is offered. */
  readonly fd: 3;
  /** Bytes kept; the rest is dropped. */
  readonly maxBytes: number;
}

/** What runProcess returns when the spec asked for a status pipe. */
export interface StatusPipeResult extends CommandResult {
  /** The status pipe's bytes, decoded as UTF-8, at most `maxBytes` of them. */
  readonly status: string;
  /** The signal that ended the root, so a wrapper's failure can be described; else null. */
  readonly exitSignal: NodeJS.Signals | null;
}

interface ProcessOutcome {
  readonly result: CommandResult;
  readonly status: string;
  readonly exitSignal: NodeJS.Signals | null;
}

const MAX_TIMER_MS = 2_147_483_647;
/** In front of every line a command writes to stderr, so the model can tell the two apart. */
export const STDERR_MARK = "[stderr] ";
/** The smallest pipe buffer Linux gives (one page per slot, 16 slots): an end() never waits. */
const MAX_INPUT_PIPE_BYTES = 64 * 1024;

/**
 * Run one program with argv (never a shell string), capture stdout and stderr interleaved, keep at
 * most `maxOutputBytes` of it, and kill the whole tree on timeout or abort. The run ends when the
 * root process exits plus a bounded drain, so a background child holding the pipes cannot block it.
 */
export function runProcess(
  spec: ProcessSpec & { readonly statusPipe: StatusPipe },
): Promise<StatusPipeResult>;
export function runProcess(spec: ProcessSpec): Promise<CommandResult>;
export async function runProcess(spec: ProcessSpec): Promise<CommandResult | StatusPipeResult> {
  const { result, status, exitSignal } = await runChild(spec);
  return spec.statusPipe === undefined ? result : { ...result, status, exitSignal };
}

function runChild(spec: ProcessSpec): Promise<ProcessOutcome> {
  assertValidLimits(spec);
  assertValidInput(spec);
  if (spec.signal?.aborted === true) {
    const result = { exitCode: null, output: "", truncated: false, timedOut: false };
    return Promise.resolve({ result, status: "", exitSignal: null });
  }
  assertWorkingDirectory(spec.cwd);
  let child: ChildProcess;
  // Held only while spawn dup()s it into the child; this process's own copy is close-on-exec.
  const devNull = spec.nullDescriptors?.length ? openSync("/dev/null", "r") : undefined;
  try {
    child = spawn(spec.executable, [...spec.args], {
      cwd: spec.cwd,
      env: { ...spec.env },
      stdio: stdioFor(spec, devNull),
      shell: false,
      // POSIX: own process group so one kill reaches grandchildren. On Windows `detached` would
      // give the child a console of its own in a new window; the tree is killed with taskkill.
      detached: spec.killTree.kind === "process-group",
      // With no inherited stdio this also gives the child its own hidden console, so a code page
      // change inside it never reaches the person's console.
      windowsHide: true,
    });
  } catch (error) {
    throw startError(nameOf(spec), error);
  } finally {
    if (devNull !== undefined) closeSync(devNull);
  }
  if (child.pid !== undefined) tellSpawned(spec, child.pid);
  const guard =
    spec.guardAgainstOrphans === true &&
    spec.killTree.kind === "process-group" &&
    child.pid !== undefined
      ? startOrphanGuard(child.pid)
      : undefined;
  const supervised = superviseChild(child, spec);
  if (guard === undefined) return supervised;
  return supervised.finally(() => {
    guard.release();
  });
}

function stdioFor(spec: ProcessSpec, devNull: number | undefined): ("ignore" | "pipe" | number)[] {
  const stdio: ("ignore" | "pipe" | number)[] = ["ignore", "pipe", "pipe"];
  if (spec.statusPipe !== undefined || spec.inputPipe !== undefined) {
    stdio.push(spec.statusPipe === undefined ? "ignore" : "pipe");
  }
  if (spec.inputPipe !== undefined) stdio.push("pipe");
  if (devNull === undefined) return stdio;
  const covered = new Set(spec.nullDescriptors);
  const highest = Math.max(...covered);
  // "ignore" past stdio leaves the child's descriptor as inherited; only close-on-exec ones are.
  for (let fd = stdio.length; fd <= highest; fd += 1) {
    stdio.push(covered.has(fd) ? devNull : "ignore");
  }
  return stdio;
}

function superviseChild(child: ChildProcess, spec: ProcessSpec): Promise<ProcessOutcome> {
  const [, stdout, stderr, statusPipe, inputPipe] = child.stdio;
  const wantsStatus = spec.statusPipe !== undefined;
  const wantsInput = spec.inputPipe !== undefined;
  if (
    stdout === null ||
    stderr === null ||
    (wantsStatus && !(statusPipe instanceof Readable)) ||
    (wantsInput && !(inputPipe instanceof Writable))
  ) {
    child.kill("SIGKILL");
    return Promise.reject(new CommandStartError(`Could not open pipes to ${nameOf(spec)}`));
  }
  if (spec.inputPipe !== undefined && inputPipe instanceof Writable) {
    // A child that exits before reading gives EPIPE here; its own exit tells what went wrong (for
    // bwrap: no exit-code status, so a setup failure), so the write error adds nothing.
    inputPipe.on("error", () => undefined);
    inputPipe.end(spec.inputPipe.data);
  }
  return new Promise((resolve, reject) => {
    const captured = new CapturedOutput(spec.maxOutputBytes, spec.spill);
    // Blanks are dropped before the cap counts: the head and tail hold text, not padding.
    const output = new TrailingBlanks(captured, STDERR_MARK);
    const status = new BoundedOutput(spec.statusPipe?.maxBytes ?? 0);
    const secrets = spec.secrets ?? [];
    const display = spec.onOutput === undefined ? undefined : displayHook(secrets, spec.onOutput);
    const onRead = display?.onBytes;
    const streams = [
      new StreamReader(stdout, output, { secrets, ...(onRead === undefined ? {} : { onRead }) }),
      new StreamReader(stderr, output, {
        secrets,
        mark: STDERR_MARK,
        ...(onRead === undefined ? {} : { onRead }),
      }),
    ];
    if (statusPipe instanceof Readable) streams.push(new StreamReader(statusPipe, status));
    let started = false;
    let killed = false;
    let timedOut = false;
    let settled = false;

    const killTree = (): void => {
      if (killed) return;
      killed = true;
      killProcessTree(child, spec.killTree);
    };
    const onAbort = (): void => {
      killTree();
    };
    const timer = setTimeout(
      () => {
        timedOut = true;
        killTree();
      },
      Math.min(spec.timeoutMs, MAX_TIMER_MS),
    );
    spec.signal?.addEventListener("abort", onAbort, { once: true });
    const stopWatching = (): void => {
      clearTimeout(timer);
      spec.signal?.removeEventListener("abort", onAbort);
    };

    child.once("spawn", () => {
      started = true;
    });
    child.on("error", (error) => {
      // After a successful start an error can only come from kill(); the exit still arrives.
      if (started || settled) return;
      settled = true;
      stopWatching();
      for (const stream of streams) stream.discard();
      display?.flush();
      captured.close();
      reject(startError(nameOf(spec), error));
    });
    child.once("exit", (code, signal) => {
      stopWatching();
      void drainAfterExit(streams).then(() => {
        if (settled) return;
        settled = true;
        for (const stream of streams) stream.finish();
        output.finish();
        // The last reads reach display before the result does.
        display?.flush();
        const exitCode = killed ? null : exitCodeOf(code, signal);
        resolve({
          result: { exitCode, ...captured.result(), timedOut },
          status: status.result().output,
          exitSignal: signal,
        });
      });
    });
  });
}

/** A program's own words without the stderr marks, for an error message about the program. */
export function unmarked(output: string): string {
  return output.replaceAll(/^\[stderr\] /gm, "");
}

/** The per-call capture options a runner passes on from the port's `CommandOptions`. */
export function captureOptions(
  options: {
    readonly spill?: OutputSpill;
    readonly secrets?: readonly string[];
    readonly onSpawn?: (pid: number) => void;
  },
  runnerSecrets: readonly string[] = [],
): Pick<ProcessSpec, "spill" | "secrets" | "onSpawn"> {
  const secrets = [...(options.secrets ?? []), ...runnerSecrets];
  return {
    ...(options.spill === undefined ? {} : { spill: options.spill }),
    ...(secrets.length === 0 ? {} : { secrets }),
    ...(options.onSpawn === undefined ? {} : { onSpawn: options.onSpawn }),
  };
}

/** The hook only records: one that throws must not leave the child unsupervised. */
function tellSpawned(spec: ProcessSpec, pid: number): void {
  try {
    spec.onSpawn?.(pid);
  } catch {
    // Nothing to do: the recovery record is an addition; the process runs and is supervised.
  }
}

function nameOf(spec: ProcessSpec): string {
  return spec.displayName ?? spec.executable;
}

function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number | null {
  if (code !== null) return code;
  // A command that died of a signal we did not send reads like a shell reports it: 128 + n.
  if (signal !== null) return 128 + osConstants.signals[signal];
  return null;
}

function startError(name: string, error: unknown): CommandStartError {
  const code = errorCode(error);
  const reason =
    code === "ENOENT"
      ? "ENOENT (no such file)"
      : code === "EACCES"
        ? "EACCES (permission denied)"
        : errorMessage(error);
  return new CommandStartError(`Could not start ${name}: ${reason}`);
}

function assertValidLimits(spec: ProcessSpec): void {
  if (!Number.isFinite(spec.timeoutMs) || spec.timeoutMs <= 0) {
    throw new RangeError(`timeoutMs must be a positive number, got ${String(spec.timeoutMs)}`);
  }
  if (!Number.isSafeInteger(spec.maxOutputBytes) || spec.maxOutputBytes < 0) {
    throw new RangeError(
      `maxOutputBytes must be a non-negative integer, got ${String(spec.maxOutputBytes)}`,
    );
  }
  const statusBytes = spec.statusPipe?.maxBytes;
  if (statusBytes !== undefined && (!Number.isSafeInteger(statusBytes) || statusBytes < 0)) {
    throw new RangeError(
      `statusPipe.maxBytes must be a non-negative integer, got ${String(statusBytes)}`,
    );
  }
}

function assertValidInput(spec: ProcessSpec): void {
  const bytes = spec.inputPipe?.data.byteLength;
  if (bytes !== undefined && bytes > MAX_INPUT_PIPE_BYTES) {
    throw new RangeError(
      `inputPipe.data must be at most ${MAX_INPUT_PIPE_BYTES} bytes, got ${bytes}`,
    );
  }
}

/** Node reports a missing cwd as the executable being missing; say what is really wrong. */
function assertWorkingDirectory(cwd: string): void {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(cwd).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (!isDirectory) throw new CommandStartError(`Working directory does not exist: ${cwd}`);
}
