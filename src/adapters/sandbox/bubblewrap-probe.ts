import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { CommandResult } from "../../core/ports/command-runner.js";
import { BubblewrapRunner, type SandboxShell } from "./bubblewrap.js";
import { errorMessage } from "../../core/common/one-line.js";
import { removedAtExit, unmarked } from "../process/index.js";
import { SandboxSetupError } from "./sandbox-errors.js";
import type { SandboxHardening } from "./sandbox-hardening.js";
import {
  hardeningFailure,
  hardeningProbeLines,
  setuidLeftInWorkspace,
  watchCorePattern,
} from "./probe-hardening.js";

export interface SandboxProbeOptions {
  readonly bwrapPath: string;
  readonly shell: SandboxShell;
  readonly network: boolean;
  readonly environment: Readonly<Record<string, string>>;
  /** Where the probe's own temp workspace goes; defaults to the real OS temp directory. */
  readonly tempRoot?: string;
  readonly timeoutMs?: number;
  /** The hardening real commands get; the probe proves this very one (default: this host's). */
  readonly hardening?: SandboxHardening;
  /**
   * Aborted when the run ends before the probe has: the probe's command is killed and its temp
   * workspace removed; the result then says nothing about the sandbox (the caller drops it).
   */
  readonly signal?: AbortSignal;
}

export type SandboxProbeResult =
  { readonly ok: true } | { readonly ok: false; readonly reason: string };

const PROBE_TIMEOUT_MS = 15_000;
const INSIDE_FILE = "probe-inside";
const INSIDE_TEXT = "inside";
const OUTSIDE_FILE = "probe-escaped";
/** Exit codes of the probe script, one per check that failed inside the sandbox. */
const EXIT = { insideWrite: 71, rootWritable: 72, tcpConnected: 73, capabilities: 74 } as const;
const CORE_PATTERN_CHANGED = "the sandbox changed the host's kernel.core_pattern (put back)";

/**
 * Proves, once per run and through the very runner (and argv builder) used for real commands, that
 * the sandbox works here: a write inside a temp workspace lands on the host, a write beside it does
 * not, the root filesystem is read-only, no capability is left, (network off) a listener on the
 * host's 127.0.0.1 cannot be reached, the host's sysctls cannot be written and no setuid or setgid
 * bit can be set (probe-hardening.ts). Each outcome is checked on the host side where it can be,
 * not taken from the sandbox's word.
 */
export async function probeSandbox(options: SandboxProbeOptions): Promise<SandboxProbeResult> {
  let root: string;
  try {
    root = await mkdtemp(
      path.join(await realpath(options.tempRoot ?? tmpdir()), "agent-sandbox-probe-"),
    );
  } catch (error) {
    return failed(`could not create a temp directory for the probe: ${errorMessage(error)}`);
  }
  // Ctrl-C leaves with process.exit, which the removal in `finally` would not outlive. A
  // recursive removal is safe here: the directory is private (mkdtemp's 0700) and only the
  // probe's own script, never a model's command, writes in it.
  const forget = removedAtExit(root);
  const listener = options.network ? undefined : await listenOnLoopback().catch(() => undefined);
  try {
    if (!options.network && listener === undefined) {
      return failed("could not open a listener on 127.0.0.1 to test network isolation");
    }
    const workspace = path.join(root, "ws");
    await mkdir(workspace);
    const runner = new BubblewrapRunner({
      bwrapPath: options.bwrapPath,
      shell: options.shell,
      workspace,
      home: undefined,
      network: options.network,
      environment: options.environment,
      ...(options.hardening === undefined ? {} : { hardening: options.hardening }),
    });
    const outside = path.join(root, OUTSIDE_FILE);
    const script = probeScript(options.shell, outside, listener?.port);
    const corePattern = watchCorePattern();
    let result: CommandResult;
    if (options.signal?.aborted === true) return failed("the run ended before the probe ran");
    try {
      result = await runner.run(script, workspace, {
        timeoutMs: options.timeoutMs ?? PROBE_TIMEOUT_MS,
        maxOutputBytes: 4096,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
    } catch (error) {
      // Even a run that failed to start is checked: the host's value is what matters.
      if (corePattern.changedAndRestored()) return failed(CORE_PATTERN_CHANGED);
      if (error instanceof SandboxSetupError) return failed(error.message);
      throw error;
    }
    if (corePattern.changedAndRestored()) return failed(CORE_PATTERN_CHANGED);
    return judge(result, {
      insideWritten: readText(path.join(workspace, INSIDE_FILE)) === INSIDE_TEXT,
      outsideWritten: existsSync(outside),
      connections: listener?.connections() ?? 0,
      setuidLeft: setuidLeftInWorkspace(workspace),
    });
  } catch (error) {
    return failed(errorMessage(error));
  } finally {
    listener?.close();
    await rm(root, { recursive: true, force: true }).catch(() => undefined);
    forget();
  }
}

interface HostEvidence {
  readonly insideWritten: boolean;
  readonly outsideWritten: boolean;
  readonly connections: number;
  readonly setuidLeft: boolean;
}

function judge(result: CommandResult, host: HostEvidence): SandboxProbeResult {
  if (host.outsideWritten) return failed("a write outside the workspace reached the host");
  if (host.connections > 0 || result.exitCode === EXIT.tcpConnected) {
    return failed("a connection to a listener on the host's 127.0.0.1 succeeded with network off");
  }
  if (result.exitCode === EXIT.rootWritable) return failed("the root filesystem was writable");
  if (result.exitCode === EXIT.capabilities) return failed("the command kept capabilities");
  if (host.setuidLeft) return failed("a setuid or setgid file was left in the workspace");
  const hardening = hardeningFailure(result.exitCode);
  if (hardening !== undefined) return failed(hardening);
  if (result.timedOut) return failed("the probe command timed out");
  const words = unmarked(result.output).trim();
  const said = words === "" ? "" : `: ${words.split("\n")[0] ?? ""}`;
  if (result.exitCode === EXIT.insideWrite || (result.exitCode === 0 && !host.insideWritten)) {
    return failed(`a write inside the workspace did not succeed${said}`);
  }
  if (result.exitCode !== 0) {
    return failed(`the probe command exited with code ${String(result.exitCode)}${said}`);
  }
  return { ok: true };
}

/**
 * POSIX sh, so it runs in whichever shell the sandbox will use. bash reaches TCP through /dev/tcp;
 * plain sh has no socket built-in, so there this very Node binary makes the attempt. Either way
 * the host listener counts connections too.
 */
function probeScript(shell: SandboxShell, outside: string, port: number | undefined): string {
  const lines = [
    `printf ${INSIDE_TEXT} > ${INSIDE_FILE} || exit ${EXIT.insideWrite}`,
    `printf escaped > ${quote(outside)} 2>/dev/null`,
    `if [ -w / ]; then exit ${EXIT.rootWritable}; fi`,
    // Any capability left (even in the user namespace) lets root remount / read-write.
    `grep -q '^CapEff:[[:space:]]*0*$' /proc/self/status || exit ${EXIT.capabilities}`,
  ];
  if (port !== undefined) {
    lines.push(`if ${connectCommand(shell, port)} 2>/dev/null; then exit ${EXIT.tcpConnected}; fi`);
  }
  lines.push(...hardeningProbeLines(), "exit 0");
  return lines.join("\n");
}

function connectCommand(shell: SandboxShell, port: number): string {
  if (shell.kind === "bash") return `(exec 3<>/dev/tcp/127.0.0.1/${String(port)})`;
  const script = `require("net").connect(${String(port)}, "127.0.0.1")
    .on("connect", () => process.exit(0)).on("error", () => process.exit(1));`;
  return `${quote(process.execPath)} -e ${quote(script)}`;
}

interface LoopbackListener {
  readonly port: number;
  connections(): number;
  close(): void;
}

function listenOnLoopback(): Promise<LoopbackListener> {
  return new Promise((resolve, reject) => {
    let connections = 0;
    const server: Server = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      if (address === null || typeof address === "string") {
        server.close();
        reject(new Error("listener has no port"));
        return;
      }
      resolve({
        port: address.port,
        connections: () => connections,
        close: () => {
          server.close();
        },
      });
    });
  });
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

function failed(reason: string): SandboxProbeResult {
  return { ok: false, reason };
}
