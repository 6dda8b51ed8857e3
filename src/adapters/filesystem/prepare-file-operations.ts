import { lstat } from "node:fs/promises";

/**
 * Loads, while the model thinks, what a run's first file tool call would otherwise load on its
 * way: node's fs/promises (with readline's interface), which the bundle requires at its first use
 * (`LAZY_BUILTINS`, scripts/bundle.js), ~1 ms of CPU and more at load. One `lstat` of the
 * workspace root does it: a read of metadata, no effect outside this process's memory. Its
 * answer is not used; an error is left to the first real call, which meets it itself.
 */
export function prepareFileOperations(workspace: string): void {
  lstat(workspace).catch(() => undefined);
}
