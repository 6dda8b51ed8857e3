/**
 * Runs one `grep` in a worker thread of its own (grep-worker.ts), one worker per call, never per
 * file. JavaScript's regular expressions backtrack: `^(a+)+$` against forty `a`s and a `b` would
 * hold whichever thread runs it for longer than anyone waits, and a busy main thread hears no
 * Ctrl-C. In a worker, the agent's thread stays free, and at the deadline or on the run's abort
 * the worker is terminated (V8 stops it even inside a regular expression).
 *
 * Where the worker's program is: bundled, `agent-grep.cjs` beside the bundle (scripts/bundle.js
 * builds it); run from the sources (tsx, vitest), `grep-worker.ts` built in memory by esbuild.
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { Worker, WorkerOptions } from "node:worker_threads";
import {
  GrepStoppedError,
  type GrepRequest,
  type GrepResult,
} from "../../core/ports/filesystem.js";
import type { GrepJob, GrepWorkerReply } from "./grep-worker.js";

/** How long one search may take: ample for a large tree, far short of a pattern that never ends. */
export const GREP_DEADLINE_MS = 30_000;

/** The worker's program: a file Node runs as it is, or (from the sources) its code. */
export type GrepWorkerScript =
  | { readonly kind: "file"; readonly path: string }
  | { readonly kind: "source"; readonly code: string };

export interface GrepInWorkerOptions {
  readonly deadlineMs: number;
  readonly signal?: AbortSignal;
  readonly script?: GrepWorkerScript;
}

/** Resolves with the search's result, or rejects (GrepStoppedError at the deadline or abort). */
export async function grepInWorker(
  root: string,
  request: GrepRequest,
  options: GrepInWorkerOptions,
): Promise<GrepResult> {
  const { deadlineMs, signal } = options;
  if (signal?.aborted === true) throw new GrepStoppedError("cancelled", deadlineMs);
  const script = options.script ?? (await grepWorkerScript());
  // Loaded at the first search, not at start-up; by require, which the bundle's launcher (a vm
  // script, without dynamic import) supports.
  const { Worker } = createRequire(import.meta.url)(
    "node:worker_threads",
  ) as typeof import("node:worker_threads");
  const job: GrepJob = { root, request };
  const settings: WorkerOptions = { workerData: job, stdout: true, stderr: true };
  const worker: Worker =
    script.kind === "file"
      ? new Worker(script.path, settings)
      : new Worker(script.code, { ...settings, eval: true });
  return new Promise<GrepResult>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      void worker.terminate();
      outcome();
    };
    const stop = (reason: GrepStoppedError["reason"]): void => {
      finish(() => {
        reject(new GrepStoppedError(reason, deadlineMs));
      });
    };
    const onAbort = (): void => {
      stop("cancelled");
    };
    const timer = setTimeout(() => {
      stop("deadline");
    }, deadlineMs);
    signal?.addEventListener("abort", onAbort, { once: true });
    worker.once("message", (reply: GrepWorkerReply) => {
      finish(() => {
        if ("result" in reply) resolve(reply.result);
        else reject(Object.assign(new Error(reply.failure.message), { name: reply.failure.name }));
      });
    });
    worker.once("error", (error) => {
      finish(() => {
        reject(error);
      });
    });
    worker.once("exit", (code) => {
      finish(() => {
        reject(new Error(`grep's worker ended (exit code ${String(code)}) without a result`));
      });
    });
  });
}

/** From where this module itself was loaded: the sources, or the bundle in dist/. */
export function grepWorkerScript(): Promise<GrepWorkerScript> {
  if (!import.meta.url.endsWith(".ts")) {
    const path = fileURLToPath(new URL("./agent-grep.cjs", import.meta.url));
    return Promise.resolve({ kind: "file", path });
  }
  builtFromSources ??= buildFromSources(
    fileURLToPath(new URL("./grep-worker.ts", import.meta.url)),
  );
  return builtFromSources;
}

/**
 * Run from the sources, the worker's program is built from them once per process, in memory, as
 * scripts/bundle.js builds agent-grep.cjs. Node runs no TypeScript of itself, and tsx's loader in
 * each worker cost a search about a second. Kept for the process: the same sources, whichever run.
 */
let builtFromSources: Promise<GrepWorkerScript> | undefined;

async function buildFromSources(entry: string): Promise<GrepWorkerScript> {
  // esbuild is a development dependency: never bundled, required only from the sources.
  const esbuild = createRequire(import.meta.url)("esbuild") as typeof import("esbuild");
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    write: false,
    logLevel: "warning",
  });
  const code = result.outputFiles[0]?.text;
  if (code === undefined) throw new Error("esbuild produced no grep worker");
  return { kind: "source", code };
}
