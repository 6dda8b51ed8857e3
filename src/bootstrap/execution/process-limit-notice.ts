/**
 * The one case where a sandbox limit the person set silently does nothing: the kernel exempts root
 * from RLIMIT_NPROC, so for a run as root only a cgroup's `pids.max` can hold the process limit.
 * When no cgroup here can, the person is told once, at start, rather than trusting a limit that
 * is not there.
 */
import { DEFAULT_RESOURCE_LIMITS, type ResourceLimits } from "../../adapters/sandbox/index.js";
import type { CgroupAvailability } from "../../adapters/cgroup/index.js";

export function unboundProcessLimitNotice(
  limits: ResourceLimits | undefined,
  runsAsRoot: boolean,
  cgroups: { processLimitBinds(): CgroupAvailability },
): string | undefined {
  const processes = (limits ?? DEFAULT_RESOURCE_LIMITS).processes;
  if (!runsAsRoot || processes === undefined) return undefined;
  const binds = cgroups.processLimitBinds();
  if (binds.ok) return undefined;
  return (
    `the sandbox's process limit (processes=${String(processes)}) does not bind: the agent runs as root, ` +
    `whom the kernel exempts from RLIMIT_NPROC, and no cgroup can hold it here (${binds.reason}); ` +
    "commands may start any number of processes"
  );
}
