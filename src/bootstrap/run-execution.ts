/**
 * Where a run's commands run, started as the settings say: a run and `agent explain` start it
 * through here, so a dry run decides on the same environment as the run.
 */
import { CommandCgroups } from "../adapters/cgroup/index.js";
import { startShellExecution, type StartedShellExecution } from "../adapters/execution/index.js";
import type { ExecutionSettings } from "./run-settings.js";

export function startRunExecution(
  settings: ExecutionSettings,
  harnessFiles: readonly string[],
  hiddenPaths: readonly string[],
  options: {
    /** This workspace's sandbox package cache (under the state directory); absent: none. */
    readonly cacheDirectory?: string;
    /** Start the probe only when asked to (see startShellExecution's `probeOnDemand`). */
    readonly probeOnDemand?: boolean;
  } = {},
): Promise<StartedShellExecution> {
  const { cacheDirectory, probeOnDemand } = options;
  return startShellExecution({
    sandbox: settings.sandbox,
    network: settings.network,
    shell: settings.shell,
    workspace: settings.workspace,
    env: settings.host.env,
    platform: settings.host.platform,
    passEnv: settings.passEnv,
    harnessFiles,
    hiddenPaths,
    ...(cacheDirectory === undefined ? {} : { cacheDirectory }),
    unmaskCredentials: settings.sandboxUnmask,
    ...(settings.sandboxLimits === undefined ? {} : { limits: settings.sandboxLimits }),
    // Nothing is made until the first sandboxed command: `agent explain` never touches a cgroup.
    cgroups: new CommandCgroups(),
    ...(probeOnDemand === true ? { probeOnDemand } : {}),
  });
}
