/**
 * The project's AGENTS.md files as a run takes them: read once, at start, from the workspace root
 * down to where the person started the agent, plus the personal file. `agent resume` goes on with
 * the system message its journal recorded and only says when the files on disk now differ.
 */
import {
  instructionsStatus,
  loadProjectInstructions,
  type ProjectInstructions,
} from "../../adapters/instructions/index.js";
import type { Host } from "../host.js";

export interface RunInstructions {
  readonly loaded: ProjectInstructions;
  /** For the first status line: the files loaded, and any not read with why. */
  readonly status: string | undefined;
}

export function loadRunInstructions(
  workspace: string,
  startDirectory: string,
  host: Host,
): RunInstructions {
  const loaded = loadProjectInstructions({
    workspace,
    startDirectory,
    env: host.env,
    platform: host.platform,
  });
  return { loaded, status: instructionsStatus(loaded) };
}

export function instructionsChangeNotice(
  recordedDigest: string | undefined,
  workspace: string,
  startDirectory: string,
  host: Host,
): string | undefined {
  const now = loadRunInstructions(workspace, startDirectory, host).loaded.digest;
  if (now === recordedDigest) return undefined;
  return "the project instructions (AGENTS.md) changed since this run began; it goes on with the instructions it began with (a new run reads the new ones)";
}
