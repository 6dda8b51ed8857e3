/**
 * What the disk says about where a write lands, for chapter 4's question about a write and for
 * the person's allow rules alike (core/policy/write-loaded-later.ts), answered by one boundary.
 */
import { hookScriptRun, installScriptRun } from "../adapters/commands/index.js";
import type { NodeWorkspaceWriteBoundary } from "../adapters/filesystem/index.js";
import { reasonOutsideInstalledCode } from "../core/policy/loaded-later-files.js";
import type { LoadedLaterProbes } from "../core/policy/write-loaded-later.js";

export function loadedLaterProbes(
  boundary: NodeWorkspaceWriteBoundary,
  workspace: string,
): Required<LoadedLaterProbes> {
  return {
    writeLanding: (path) => boundary.landingNow(workspace, path),
    // Links in installed code do not count: a monorepo links each of its packages from
    // node_modules, which would make every write in them a question.
    loadedThrough: (path) => boundary.loadedThroughNow(workspace, path, reasonOutsideInstalledCode),
    // The hooks first: a few small files, where the install scripts need the loaded-later walk.
    laterRun: (path) => {
      const landing = boundary.landingNow(workspace, path);
      return hookScriptRun(workspace, landing) ?? installScriptRun(workspace, landing);
    },
  };
}
