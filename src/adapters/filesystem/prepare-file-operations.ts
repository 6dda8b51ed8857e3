import { constants } from "node:fs";
import { lstat, open } from "node:fs/promises";
import { O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } from "./fs-errors.js";
import { classifyWorkspacePath } from "./workspace-path-syntax.js";

const OPEN_FLAGS = constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK;
/** Any relative path: only its check's patterns matter. */
const SAMPLE_PATH = "src/prepare.ts";

/**
 * Readies, while the model thinks, what a run's first file tool call would otherwise pay for on
 * its way: node's fs/promises (with readline's interface), which the bundle requires at its first
 * use (`LAZY_BUILTINS`, scripts/bundle.js); its `lstat` and file handles, which node compiles at
 * their first use, through one lstat, open, fstat and close of the workspace directory
 * (read-only, as held-listing.ts opens one: nothing but a directory, no link followed, nothing
 * waited on); and the path check's patterns, which V8 compiles at a pattern's first use and to
 * machine code at its next, through two checks of a made-up relative path. No effect outside
 * this process's memory. The promise (for tests) settles when the directory is closed again; it
 * never rejects.
 */
export async function prepareFileOperations(workspace: string): Promise<void> {
  classifyWorkspacePath(SAMPLE_PATH);
  classifyWorkspacePath(SAMPLE_PATH);
  try {
    await lstat(workspace);
    const handle = await open(workspace, OPEN_FLAGS);
    try {
      await handle.stat();
    } finally {
      await handle.close();
    }
  } catch {
    // Left to the first real call, which meets it itself.
  }
}
