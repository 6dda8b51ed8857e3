/**
 * The files no write may touch, as the dependencies name them: every boundary and file system the
 * composition root builds is given the same list.
 */
import type { ProtectedFiles } from "../adapters/filesystem/index.js";
import type { AgentDependencies } from "./agent-dependencies.js";

export function protectedFiles(deps: AgentDependencies): ProtectedFiles {
  return {
    harnessFiles: deps.harnessFiles ?? [],
    ...(deps.hostFiles === undefined ? {} : { hostFiles: deps.hostFiles }),
  };
}
