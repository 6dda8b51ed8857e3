/**
 * Work that must run in a fresh Node process: a first call with a cold JIT, or a peak-memory figure
 * that nothing else in the bench may have inflated. `runProbe` starts `probe.ts` with one job and
 * reads back its JSON line; the job itself runs in the child through `runJob`.
 */
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { readFile } from "node:fs/promises";
import { PosixShellRunner } from "../src/adapters/shell/posix-shell.js";
import { selectCommandRunner } from "../src/adapters/shell/shell-selection.js";
import { BenchFailure, runToExit } from "./measurement.js";

export type ProbeJob =
  | {
      readonly kind: "first-path-check";
      readonly check: "safePath" | "isPathWithinWorkspace";
      readonly workspace: string;
      readonly path: string;
    }
  | {
      readonly kind: "shell-capture";
      /** `harness`: runProcess through the POSIX shell runner; `bare-pipe`: spawn and count bytes. */
      readonly mode: "harness" | "bare-pipe";
      readonly workspace: string;
      readonly bytes: number;
    }
  | {
      readonly kind: "read-file";
      /** `tool`: the read_file tool through the registry; `naive`: fs.readFile + split. */
      readonly mode: "tool" | "naive";
      readonly workspace: string;
      readonly path: string;
      readonly offset?: number;
      readonly limit?: number;
      readonly repeat: number;
    };

export interface ProbeResult {
  /** Wall time of each repetition, in milliseconds. */
  readonly ms: readonly number[];
  /** Peak resident memory during the work, above the resident size just before it. */
  readonly rssGrowthMiB: number;
  /** What the work produced, checked by the caller so a wrong path is never timed. */
  readonly detail: string;
}

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
const PROBE_ENTRY = fileURLToPath(new URL("./probe.ts", import.meta.url));

export async function runProbe(job: ProbeJob): Promise<ProbeResult> {
  const { code, stdout, stderr } = await runToExit(
    process.execPath,
    ["--import", "tsx", PROBE_ENTRY, JSON.stringify(job)],
    { cwd: REPO_ROOT },
  );
  const parsed = code === 0 ? parseProbeResult(stdout) : undefined;
  if (parsed === undefined) {
    throw new BenchFailure(`probe ${job.kind} failed (exit ${String(code)}): ${stderr}`);
  }
  return parsed;
}

function parseProbeResult(stdout: string): ProbeResult | undefined {
  const last = stdout.trim().split("\n").at(-1) ?? "";
  let value: unknown;
  try {
    value = JSON.parse(last);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const { ms, rssGrowthMiB, detail } = value as Record<string, unknown>;
  if (!Array.isArray(ms) || !ms.every((item) => typeof item === "number")) return undefined;
  if (typeof rssGrowthMiB !== "number" || typeof detail !== "string") return undefined;
  return { ms, rssGrowthMiB, detail };
}

/**
 * Runs `work` while sampling resident memory. The kernel's high-water mark counts too, but only if
 * it rose during the work, so a peak from start-up (module loading) is never charged to it.
 */
export async function withPeakRss(
  work: () => Promise<{ ms: number[]; detail: string }>,
): Promise<ProbeResult> {
  const before = process.memoryUsage.rss();
  const highWaterBefore = process.resourceUsage().maxRSS * 1024;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 2);
  let outcome: { ms: number[]; detail: string };
  try {
    outcome = await work();
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, process.memoryUsage.rss());
  const highWaterAfter = process.resourceUsage().maxRSS * 1024;
  if (highWaterAfter > highWaterBefore) peak = Math.max(peak, highWaterAfter);
  return { ...outcome, rssGrowthMiB: (peak - before) / 2 ** 20 };
}

/** The naive way to show lines A..B of a file: read it all, split it all. */
export async function naiveLineWindow(
  path: string,
  offset: number,
  limit: number,
): Promise<{ ms: number; lines: number }> {
  const start = performance.now();
  const lines = (await readFile(path, "utf8")).split("\n");
  const window = lines.slice(offset - 1, offset - 1 + limit);
  return { ms: performance.now() - start, lines: window.length };
}

/** The POSIX shell the CLI would pick, with the allowlisted environment it would build. */
export function benchShellRunner(workspace: string): PosixShellRunner {
  const runner = selectCommandRunner({
    choice: "posix",
    workspace,
    env: process.env,
    platform: process.platform,
    passEnv: [],
  });
  if (!(runner instanceof PosixShellRunner)) throw new Error("expected a POSIX shell runner");
  return runner;
}
