/**
 * Where this workspace's runs are kept: the state root (`--state-dir`, AGENT_STATE_DIR or the
 * platform default), this workspace's directory under it, and its `runs/` directory.
 */
import {
  listRuns,
  runIdsNewestFirst,
  runsDirectory,
  type RunSummary,
} from "../../adapters/journal/index.js";
import { openWorkspaceState, stateRootPath } from "../../adapters/state/index.js";
import { homeDirectory } from "../../adapters/home/index.js";
import type { Host } from "../host.js";

export interface RunStore {
  /** The state root's real path: hidden from sandboxed commands, refused to the file tools. */
  readonly stateRoot: string;
  readonly runs: string;
  /** This workspace's own state directory (real path): its sandbox package cache lives here. */
  readonly workspaceState: string;
}

export function openRunStore(stateDir: string | undefined, io: Host, workspace: string): RunStore {
  const state = openWorkspaceState(stateRootFor(stateDir, io), workspace);
  return {
    stateRoot: state.root,
    runs: runsDirectory(state.directory),
    workspaceState: state.directory,
  };
}

/** This workspace's newest runs, newest first (`agent runs`); only those journals are read. */
export function listStoredRuns(store: RunStore, limit = Number.POSITIVE_INFINITY): RunSummary[] {
  return listRuns(store.runs, limit);
}

/** How many runs the store holds, without reading their journals. */
export function countStoredRuns(store: RunStore): number {
  return runIdsNewestFirst(store.runs).length;
}

/** The state root's path as given (not yet opened): `--state-dir`, AGENT_STATE_DIR or the default. */
export function stateRootFor(stateDir: string | undefined, io: Host): string {
  return stateRootPath({
    flag: stateDir,
    env: io.env,
    platform: io.platform,
    homeDirectory: homeDirectory(io.env),
  });
}
