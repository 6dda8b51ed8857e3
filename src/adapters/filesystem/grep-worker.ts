/**
 * The `grep` walk, as a worker thread's whole program (grep-in-worker.ts starts it): a pattern
 * that backtracks without end then holds this thread, never the agent's, and the agent can end
 * it. It posts one `GrepWorkerReply` and ends.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { GrepRequest, GrepResult } from "../../core/ports/filesystem.js";
import { GlobPattern } from "./glob-pattern.js";
import { grepWorkspace } from "./workspace-grep.js";

/** What the worker is started with: the workspace's real path and the search. */
export interface GrepJob {
  readonly root: string;
  readonly request: GrepRequest;
}

export type GrepWorkerReply =
  | { readonly result: GrepResult }
  | { readonly failure: { readonly name: string; readonly message: string } };

const { root, request } = workerData as GrepJob;
const glob = request.glob === undefined ? undefined : GlobPattern.compile(request.glob);
grepWorkspace(root, request, glob).then(
  (result) => {
    parentPort?.postMessage({ result } satisfies GrepWorkerReply);
  },
  (error: unknown) => {
    const { name, message } = error instanceof Error ? error : new Error(String(error));
    parentPort?.postMessage({ failure: { name, message } } satisfies GrepWorkerReply);
  },
);
