/**
 * Issue 7 "Measure": what the bubblewrap sandbox adds to one shell command. `true` through the real
 * BubblewrapRunner (the CLI's `--sandbox required` path) and through the host runner (`--sandbox
 * off`), alternating, so the difference is bubblewrap's setup alone. Also the one-time probe.
 */
import { performance } from "node:perf_hooks";
import { createShellExecution, type SandboxMode } from "../src/adapters/shell-execution.js";
import type { CommandRunner } from "../src/core/command-runner.js";
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
    if (status.kind !== "isolated") {
      throw new BenchFailure(
        `bubblewrap is not usable here: ${status.kind === "unavailable" ? status.reason : status.label}`,
      );
    }
    const host = await shellExecution("off", workspace);
    const once = (runner: CommandRunner) => async (): Promise<number> => {
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
    const variants = [
      { name: "host", run: once(host.runner) },
      { name: "bwrap", run: once(sandboxed.runner) },
    ];
    await roundRobin(2, variants); // warm-up
    const samples = await roundRobin(ROUNDS, variants);
    const hostMs = samplesOf(samples, "host");
    const bwrapMs = samplesOf(samples, "bwrap");
    const added = percentile(
      bwrapMs.map((value, index) => value - (hostMs[index] ?? Number.NaN)),
      50,
    );

    const probeMs: number[] = [];
    for (let run = 0; run < PROBE_RUNS; run += 1) {
      const start = performance.now();
      await shellExecution("required", workspace);
      probeMs.push(performance.now() - start);
    }
    const verdict = added < BUDGET_MS ? "within" : "OVER";
    return {
      title: "Sandbox",
      rows: [
        {
          name: "`true` on the host (`--sandbox off`)",
          unit: "ms",
          summary: summarize(hostMs),
          note: `${host.environment.status().kind}: bash -c through runProcess`,
        },
        {
          name: "`true` in bubblewrap (`--sandbox required`)",
          unit: "ms",
          summary: summarize(bwrapMs),
          note: `+${formatNumber(added)} ms over the host (median of per-round differences; ${verdict} the ${BUDGET_MS} ms budget)`,
        },
        {
          name: "sandbox set-up and probe, once per run",
          unit: "ms",
          summary: summarize(probeMs),
          note: "createShellExecution: find bwrap, prove writes, read-only root and no network",
        },
      ],
      notes: [
        "measured through the CLI's own runners (src/adapters/shell-execution.ts → " +
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
