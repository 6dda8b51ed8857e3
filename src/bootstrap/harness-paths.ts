/**
 * The one list of the harness's own paths that the file tools refuse and the sandbox binds
 * read-only or hides: a run, a resumed run and `agent explain` all take it from here, so a dry run
 * protects exactly what the run it explains protects.
 */
import { existsSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { agentInstallPaths } from "../adapters/filesystem/index.js";

const PACKAGE_NAME = "agent-harness";

export interface HarnessPathsInput {
  /** The audit log's real path (`--audit-log`, AGENT_AUDIT_LOG). */
  readonly auditLog?: string | undefined;
  /** The recording's real path (`--record`). */
  readonly recording?: string | undefined;
  /** `.agent/outputs`, where long command outputs are saved whole. */
  readonly outputs: string;
  /** The state root (journals, grants), outside the workspace. */
  readonly stateRoot?: string | undefined;
}

/**
 * Real paths. The agent's own install too (dist/, scripts/, package.json, node_modules, …): when
 * the workspace holds it (its own clone), a command that changed it would run on the host at the
 * next start. Protected by real path: the whole directory, not only files.
 */
export function harnessPaths(input: HarnessPathsInput): string[] {
  return [
    input.auditLog,
    input.recording,
    input.outputs,
    input.stateRoot,
    ...agentInstallPaths(import.meta.url, PACKAGE_NAME),
  ].filter((path): path is string => path !== undefined);
}

/**
 * Where a harness file would be, for a dry run that must not create it: its directory's real path
 * and its own name, as the run's safe open records it (a missing directory: the path as given).
 */
export function plannedRealPath(path: string): string {
  const absolute = resolve(path);
  const directory = dirname(absolute);
  return existsSync(directory)
    ? join(realpathSync.native(directory), basename(absolute))
    : absolute;
}

/** A directory's real path when it exists; a dry run creates nothing. */
export function existingRealPath(path: string): string | undefined {
  return existsSync(path) ? realpathSync.native(path) : undefined;
}
