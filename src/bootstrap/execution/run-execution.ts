/**
 * Where a run's commands run, started as the settings say: a run and `agent explain` start it
 * through here, so a dry run decides on the same environment as the run.
 */
import { CommandCgroups } from "../../adapters/cgroup/index.js";
import {
  startShellExecution,
  type ShellExecutionOptions,
  type StartedShellExecution,
} from "../../adapters/execution/index.js";
import type { SandboxHostFiles } from "../../adapters/sandbox/index.js";
import { reasonOutsideInstalledCode } from "../../core/policy/loaded-later-files.js";
import type { LoadedLaterToCommands } from "../../core/profiles.js";
import { unboundProcessLimitNotice } from "./process-limit-notice.js";
import type { ExecutionSettings } from "../run-settings.js";

export async function startRunExecution(
  settings: ExecutionSettings,
  harnessFiles: readonly string[],
  hiddenPaths: readonly string[],
  options: {
    /** What the host loads later, inside the workspace, asked for at each command (host-files.ts). */
    readonly hostFiles?: () => SandboxHostFiles;
    /** The placeholder ledger in this workspace's state directory, shared by its runs. */
    readonly placeholderLedger?: string;
    /** This workspace's sandbox package cache (under the state directory); absent: none. */
    readonly cacheDirectory?: string;
    /** Start the probe only when asked to (see startShellExecution's `probeOnDemand`). */
    readonly probeOnDemand?: boolean;
    /**
     * A run (not `agent explain`, which makes no cgroup) says once when the process limit cannot
     * bind (process-limit-notice.ts): one more notice with the sandbox decision.
     */
    readonly checkProcessLimit?: boolean;
  } = {},
): Promise<StartedShellExecution> {
  const { cacheDirectory, probeOnDemand } = options;
  const cgroups = new CommandCgroups();
  const started = await startShellExecution({
    sandbox: settings.sandbox,
    network: settings.network,
    shell: settings.shell,
    workspace: settings.workspace,
    env: settings.host.env,
    platform: settings.host.platform,
    passEnv: settings.passEnv,
    harnessFiles,
    ...(options.hostFiles === undefined ? {} : { hostFiles: options.hostFiles }),
    ...loadedLaterOptions(settings.profile.loadedLaterToCommands),
    ...(options.placeholderLedger === undefined
      ? {}
      : { placeholderLedger: options.placeholderLedger }),
    hiddenPaths,
    ...(cacheDirectory === undefined ? {} : { cacheDirectory }),
    unmaskCredentials: settings.sandboxUnmask,
    ...(settings.sandboxLimits === undefined ? {} : { limits: settings.sandboxLimits }),
    // Nothing is made until the first sandboxed command: `agent explain` never touches a cgroup.
    cgroups,
    ...(probeOnDemand === true ? { probeOnDemand } : {}),
  });
  if (options.checkProcessLimit !== true) return started;
  const ready = started.ready.then((decided) => {
    if (decided.environment.status().kind !== "isolated") return decided;
    const notice = unboundProcessLimitNotice(
      settings.sandboxLimits,
      process.getuid?.() === 0,
      cgroups,
    );
    return notice === undefined
      ? decided
      : { ...decided, notices: [...(decided.notices ?? []), notice] };
  });
  return {
    runner: started.runner,
    environment: started.environment,
    networkOff: started.networkOff,
    ready,
    startProbe: () => {
      started.startProbe();
    },
    abandonProbe: () => {
      started.abandonProbe();
    },
  };
}

/** What the sandbox holds back of the files the host loads later, as the profile says. */
function loadedLaterOptions(
  toCommands: LoadedLaterToCommands,
): Pick<ShellExecutionOptions, "loadedLater" | "loadedLaterFor"> {
  switch (toCommands) {
    case "writable":
      return {};
    case "read-only":
      return { loadedLater: reasonOutsideInstalledCode, loadedLaterFor: "every-command" };
    case "read-only-unless-approved":
      return { loadedLater: reasonOutsideInstalledCode, loadedLaterFor: "unapproved-commands" };
  }
}
