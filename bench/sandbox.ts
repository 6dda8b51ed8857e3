/**
 * Issue 7 "Measure": what the bubblewrap sandbox adds to one shell command. `true` through the real
 * BubblewrapRunner (the CLI's `--sandbox required` path) and through the host runner (`--sandbox
 * off`), alternating, so the difference is the sandbox alone. Beside them the same two argv lists
 * spawned bare, which tells bwrap's own cost from our runner's. Also the one-time probe.
 */
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { BubblewrapRunner } from "../src/adapters/sandbox/bubblewrap.js";
import { sandboxHardening } from "../src/adapters/sandbox/sandbox-hardening.js";
import { buildCommandEnvironment } from "../src/adapters/shell/command-environment.js";
import { resolveExecutable } from "../src/adapters/shell/executable-resolution.js";
import { posixShellArgs, PosixShellRunner } from "../src/adapters/shell/posix-shell.js";
import {
  createShellExecution,
  type SandboxMode,
} from "../src/adapters/execution/shell-execution.js";
import type { CommandRunner } from "../src/core/ports/command-runner.js";
import {
  BenchFailure,
  roundRobin,
  samplesOf,
  withTempDir,
  type SectionResult,
} from "./measurement.js";
import { percentile, summarize } from "./stats.js";
import { formatNumber } from "./table.js";

const ROUNDS = 40;
const PROBE_RUNS = 3;
/** Issue 7's budget for the sandbox's added time per command. */
const BUDGET_MS = 20;

export async function measureSandbox(): Promise<SectionResult> {
  return withTempDir("sandbox", async (workspace) => {
    const sandboxed = await shellExecution("required", workspace);
    const status = sandboxed.environment.status();
    if (status.kind !== "isolated" || !(sandboxed.runner instanceof BubblewrapRunner)) {
      throw new BenchFailure(
        `bubblewrap is not usable here: ${status.kind === "unavailable" ? status.reason : status.label}`,
      );
    }
    const host = await shellExecution("off", workspace);
    if (!(host.runner instanceof PosixShellRunner)) {
      throw new BenchFailure("--sandbox off did not give the POSIX host runner");
    }
    const bwrapPath = resolveExecutable("bwrap", {
      env: process.env,
      workspace,
      platform: process.platform,
    });
    if (bwrapPath === undefined) throw new BenchFailure("bwrap is not on PATH");
    const shellKind = host.runner.shellName === "bash" ? "bash" : "sh";
    const bareHost = [host.runner.executable, ...posixShellArgs(shellKind, "true")];
    const bareSandbox = [bwrapPath, ...sandboxed.runner.argsFor("true", workspace)];
    // The runner's argv reads its seccomp program from fd 4 (`--seccomp 4`): feed it the same.
    const seccomp = sandboxHardening(process.arch)?.seccompFilter;
    if (seccomp === undefined) throw new BenchFailure(`no seccomp table for ${process.arch}`);

    const variants = [
      { name: "host", run: throughRunner(host.runner, workspace) },
      { name: "bwrap", run: throughRunner(sandboxed.runner, workspace) },
      { name: "bare host", run: () => spawnToExit(bareHost, workspace) },
      { name: "bare bwrap", run: () => spawnToExit(bareSandbox, workspace, seccomp) },
    ];
    await roundRobin(2, variants); // warm-up
    const samples = await roundRobin(ROUNDS, variants);
    const added = (sandbox: string, onHost: string): number => {
      const hostMs = samplesOf(samples, onHost);
      return percentile(
        samplesOf(samples, sandbox).map((value, index) => value - (hostMs[index] ?? Number.NaN)),
        50,
      );
    };
    const runnerAdded = added("bwrap", "host");
    const bareAdded = added("bare bwrap", "bare host");

    const probeMs: number[] = [];
    for (let run = 0; run < PROBE_RUNS; run += 1) {
      const start = performance.now();
      await shellExecution("required", workspace);
      probeMs.push(performance.now() - start);
    }
    const verdict = runnerAdded < BUDGET_MS ? "within" : "OVER";
    return {
      title: "Sandbox",
      rows: [
        {
          name: "`true` on the host (`--sandbox off`)",
          unit: "ms",
          summary: summarize(samplesOf(samples, "host")),
          note: "PosixShellRunner: bash -c through runProcess",
        },
        {
          name: "`true` in bubblewrap (`--sandbox required`)",
          unit: "ms",
          summary: summarize(samplesOf(samples, "bwrap")),
          note:
            `+${formatNumber(runnerAdded)} ms over the host (median of per-round differences; ` +
            `${verdict} issue 7's ${BUDGET_MS} ms budget)`,
        },
        {
          name: "bare spawn of the same `bash -c true`",
          unit: "ms",
          summary: summarize(samplesOf(samples, "bare host")),
          note: "floor: no harness",
        },
        {
          name: "bare spawn of the same bwrap argv",
          unit: "ms",
          summary: summarize(samplesOf(samples, "bare bwrap")),
          note: `+${formatNumber(bareAdded)} ms over bare bash: bubblewrap's own share`,
        },
        {
          name: "sandbox set-up and probe, once per run",
          unit: "ms",
          summary: summarize(probeMs),
          note: "createShellExecution: find bwrap, prove writes, read-only root and no network",
        },
      ],
      notes: [
        "measured through the CLI's own runners (src/adapters/execution/shell-execution.ts → " +
          "BubblewrapRunner, network off), not a stand-in.",
      ],
    };
  });
}

function shellExecution(sandbox: SandboxMode, workspace: string) {
  return createShellExecution({
    sandbox,
    network: false,
    shell: "posix",
    workspace,
    env: process.env,
    platform: process.platform,
    passEnv: [],
  });
}

function throughRunner(runner: CommandRunner, workspace: string): () => Promise<number> {
  return async () => {
    const start = performance.now();
    const result = await runner.run("true", workspace, {
      timeoutMs: 10_000,
      maxOutputBytes: 50 * 1024,
    });
    const elapsed = performance.now() - start;
    if (result.exitCode !== 0 || result.output !== "") {
      throw new BenchFailure(`true gave exit ${String(result.exitCode)}: ${result.output}`);
    }
    return elapsed;
  };
}

/**
 * Spawn → exit for an argv, with the same allowlisted environment, a status pipe on fd 3 and, for
 * bwrap, the seccomp program on fd 4.
 */
function spawnToExit(argv: readonly string[], cwd: string, seccomp?: Uint8Array): Promise<number> {
  const [executable, ...args] = argv;
  if (executable === undefined) return Promise.reject(new BenchFailure("empty argv"));
  const env = buildCommandEnvironment(process.env, { passEnv: [], platform: process.platform });
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(executable, args, {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe", "pipe", "pipe"],
    });
    const seccompPipe = child.stdio[4];
    if (seccompPipe !== null && seccompPipe !== undefined && "end" in seccompPipe) {
      seccompPipe.on("error", () => undefined);
      seccompPipe.end(seccomp);
    }
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("error", reject);
    child.once("close", (code) => {
      if (code === 0) resolve(performance.now() - start);
      else reject(new BenchFailure(`${executable} exited ${String(code)}: ${stderr}`));
    });
  });
}
