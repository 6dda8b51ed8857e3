import type { CommandResult } from "../../core/ports/command-runner.js";
import {
  CgroupError,
  type CgroupEvidence,
  type CommandCgroup,
  type CommandCgroups,
} from "../cgroup/index.js";
import type { ResourceLimits } from "./resource-limits.js";
import { SandboxSetupError } from "./sandbox-errors.js";

/** What the runner needs of the cgroup adapter (bootstrap constructs it). */
export type SandboxCgroups = Pick<CommandCgroups, "create">;

export interface CgroupRun {
  readonly result: CommandResult;
  /** What the command's cgroup counted; absent when it ran without one. */
  readonly evidence?: CgroupEvidence;
}

/**
 * Runs one sandboxed command in a fresh cgroup holding the process and memory limits, when
 * cgroups are available; `start` gets the argv that enters the cgroup and then executes bwrap
 * (empty without one), which it must start with the host side's fixed environment
 * (sandboxed-process.ts), not the command's. The cgroup is removed afterwards, however the
 * command ended (timeout and abort included), after anything left in it is killed.
 *
 * A cgroup that cannot be made when cgroups are available fails closed: the command does not
 * run without the limits it was promised.
 */
export async function runInCgroup(
  cgroups: SandboxCgroups | undefined,
  limits: ResourceLimits,
  shellPath: string,
  start: (entry: readonly string[]) => Promise<CommandResult>,
): Promise<CgroupRun> {
  const cgroup = create(cgroups, limits);
  if (cgroup === undefined) return { result: await start([]) };
  try {
    const result = await start(cgroup.entryArgv(shellPath));
    return { result, evidence: cgroup.evidence() };
  } catch (error) {
    // The OOM killer may choose bwrap itself: no exit status then, but the cgroup says why.
    const evidence = cgroup.evidence();
    if (error instanceof SandboxSetupError && (evidence.oomKills ?? 0) > 0) {
      return {
        result: { exitCode: 128 + 9, output: "", truncated: false, timedOut: false },
        evidence,
      };
    }
    throw error;
  } finally {
    await cgroup.remove();
  }
}

function create(
  cgroups: SandboxCgroups | undefined,
  limits: ResourceLimits,
): CommandCgroup | undefined {
  try {
    return cgroups?.create({ processes: limits.processes, memory: limits.memory });
  } catch (error) {
    if (!(error instanceof CgroupError)) throw error;
    throw new SandboxSetupError(
      `The sandbox could not make the command's cgroup for its process and memory limits (${error.message}); the command did not run`,
      { cause: error },
    );
  }
}
