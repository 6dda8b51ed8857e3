/** What a section reports, and the few helpers every section shares. */
import { fileURLToPath } from "node:url";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { Summary } from "./stats.js";

export type Unit = "ms" | "µs" | "MiB" | "calls/s";

export interface Row {
  readonly name: string;
  readonly unit: Unit;
  readonly summary: Summary;
  /** The side-by-side comparison or the extra figures that make the row readable. */
  readonly note: string;
  /** Ours over the floor or the competitor, per round, where the row compares (issue 19). */
  readonly ratio?: Summary;
  /** Targets the issue set for this figure, and whether this run met each. */
  readonly targets?: readonly Target[];
}

export interface Target {
  /** What was asked, e.g. "≤ 0.8× tinyglobby". */
  readonly goal: string;
  /** What this run measured, in the goal's terms. */
  readonly figure: string;
  readonly met: boolean;
}

export interface SectionResult {
  readonly title: string;
  readonly rows: readonly Row[];
  /** Caveats a reader needs, e.g. that a stand-in was measured. */
  readonly notes: readonly string[];
}

export interface Variant {
  readonly name: string;
  /** One sample, in whatever unit the section reports. */
  readonly run: () => Promise<number>;
}

/**
 * Runs every variant once per round, rotating who goes first, so drift on a shared machine (another
 * process waking up, the disk flushing) lands on all of them and their ratio stays meaningful.
 */
export async function roundRobin(
  rounds: number,
  variants: readonly Variant[],
): Promise<Map<string, number[]>> {
  const samples = new Map<string, number[]>(variants.map((variant) => [variant.name, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (let offset = 0; offset < variants.length; offset += 1) {
      const variant = variants[(round + offset) % variants.length];
      if (variant === undefined) continue;
      const sample = await variant.run();
      samples.get(variant.name)?.push(sample);
    }
  }
  return samples;
}

export function samplesOf(samples: ReadonlyMap<string, number[]>, name: string): number[] {
  const found = samples.get(name);
  if (found === undefined || found.length === 0) throw new Error(`no samples for ${name}`);
  return found;
}

/** Milliseconds taken by `work`. */
/**
 * Collects the bench's own garbage now, before a timed run that the bench process takes part in
 * (a pseudo-terminal it reads, a model server it answers): the glob section leaves a heap of
 * 100,000-path arrays whose major collection otherwise landed inside the CLI's shell runs and made
 * them 2-5x slower. Needs `--expose-gc` (the npm script passes it); without it, nothing happens.
 */
export function collectOwnGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

export async function timeMs(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

/** A fresh real directory (`realpath`: macOS `/var` is a symlink), removed after, even on failure. */
export async function withTempDir<T>(
  prefix: string,
  work: (directory: string) => Promise<T>,
): Promise<T> {
  const directory = await mkdtemp(join(await realpath(tmpdir()), `agent-bench-${prefix}-`));
  try {
    return await work(directory);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

export interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a process to its end with stdin an empty pipe (not a TTY), keeping stdout and stderr apart. */
export function runToExit(
  executable: string,
  args: readonly string[],
  options: {
    readonly cwd: string;
    readonly env?: NodeJS.ProcessEnv;
    /** Told the child's pid once it is spawned (to read its /proc entries while it runs). */
    readonly onSpawn?: (pid: number) => void;
  },
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(executable, [...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    if (child.pid !== undefined) options.onSpawn?.(child.pid);
    child.stdin.end();
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("error", reject);
    child.once("close", (code) => {
      resolve({ code, stdout, stderr });
    });
  });
}

/** `a ÷ b` as `1.23×`; large ratios lose their decimals, which would only be noise. */
export function ratio(ours: number, theirs: number): string {
  const value = ours / theirs;
  return `${value >= 10 ? Math.round(value).toLocaleString("en-US") : value.toFixed(2)}×`;
}

export class BenchFailure extends Error {
  override readonly name = "BenchFailure";
}

/** dist/agent.cjs fresh from the sources (scripts/bundle.js), so the CLI measured is this tree's. */
export async function buildAgentBundle(): Promise<void> {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const { code, stderr } = await runToExit(process.execPath, ["scripts/bundle.js"], { cwd: root });
  if (code !== 0) throw new BenchFailure(`scripts/bundle.js failed: ${stderr}`);
}

/** A live process's peak resident set so far (VmHWM), in MiB; NaN where /proc cannot say. */
export function peakRssMiB(pid: number): number {
  try {
    const status = readFileSync(`/proc/${String(pid)}/status`, "utf8");
    const kib = /^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1];
    return kib === undefined ? Number.NaN : Number(kib) / 1024;
  } catch {
    return Number.NaN;
  }
}
