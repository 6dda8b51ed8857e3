import { readFileSync } from "node:fs";
import { HOST_LABEL } from "../../core/policy/execution-environment.js";
import type {
  ArgvRunner,
  CommandOptions,
  CommandResult,
  CommandRunner,
} from "../../core/ports/command-runner.js";
import { errorMessage } from "../../core/common/one-line.js";
import type {
  ExecutionEnvironment,
  ExecutionEnvironmentStatus,
} from "../../core/policy/execution-environment.js";
import {
  BubblewrapRunner,
  effectiveLimits,
  hostFileReach,
  noSeccompTable,
  prepareCacheDirectory,
  probeSandbox,
  sandboxHardening,
  SandboxSetupError,
  SandboxWorkspaceError,
  type ResourceLimits,
  type SandboxHardening,
  type SandboxHostFiles,
  type SandboxPowerShell,
  type SandboxCgroups,
  type SandboxProbeResult,
  type SandboxShell,
} from "../sandbox/index.js";
import {
  caBundleEnvironment,
  findPosixShellExecutable,
  planPosixShell,
  planPowerShell,
  resolveExecutable,
  plannedShellName,
  selectCommandRunner,
  type PowerShellPlan,
  type ShellChoice,
  type ShellSelectionOptions,
} from "../shell/index.js";
import { UnavailableRunner } from "./unavailable-runner.js";
import { RefusingArgvRunner, SandboxedArgvRunner } from "./sandboxed-argv.js";
import { homeDirectory } from "../home/index.js";

export type SandboxMode = "auto" | "required" | "off";

/** The shell selection's options (lookup, environment) plus where and how commands may run. */
export interface ShellExecutionOptions extends Omit<ShellSelectionOptions, "choice"> {
  readonly sandbox: SandboxMode;
  /** Let sandboxed commands reach the network (`--network`); host commands always can. */
  readonly network: boolean;
  readonly shell: ShellChoice;
  /** The CPU architecture (`process.arch`), which picks the seccomp filter; tests name others. */
  readonly arch?: string;
  /**
   * Absolute real paths of the files the harness writes itself (audit log, recording); those
   * inside the workspace are bound read-only in the sandbox.
   */
  readonly harnessFiles?: readonly string[];
  /**
   * What the host loads or runs later inside the workspace, asked for at each sandboxed command:
   * bound read-only, or kept from being made (the runner's `hostFiles`).
   */
  readonly hostFiles?: () => SandboxHostFiles;
  /** The placeholder ledger every run in this workspace shares (the runner's option). */
  readonly placeholderLedger?: string;
  /** Which files a later session, an editor or CI loads: kept from commands (the runner's option). */
  readonly loadedLater?: (relativePath: string) => string | undefined;
  /** Which commands `loadedLater` holds back (the runner's option): every one by default. */
  readonly loadedLaterFor?: "every-command" | "unapproved-commands";
  /**
   * Real paths outside the workspace that sandboxed commands must not see at all: the harness's
   * state directory (run journals hold whole conversations).
   */
  readonly hiddenPaths?: readonly string[];
  /**
   * The host directory for the sandbox's package caches (under the workspace's state directory);
   * absent, each command's cache lives on its private /tmp and goes with it.
   */
  readonly cacheDirectory?: string;
  /** Credentials to leave readable in the sandbox (`--sandbox-unmask`); the rest are masked. */
  readonly unmaskCredentials?: readonly string[];
  /** Resource limits for every sandboxed command (`--sandbox-limit`); absent: none (tests). */
  readonly limits?: ResourceLimits;
  /** A cgroup per sandboxed command for the process and memory limits, where one can be had. */
  readonly cgroups?: SandboxCgroups;
  /** Tests substitute the sandbox probe; production runs the real one once. */
  readonly probeSandbox?: typeof probeSandbox;
  /**
   * When the probe may run in the background (see startShellExecution), start it only once
   * `startProbe()` is called or a command is to run, not at once: the CLI starts it as the first
   * model request leaves, so its ~10 ms of work on this thread (temp workspace, bwrap's argv, the
   * spawn) is not spent before that request.
   */
  readonly probeOnDemand?: boolean;
}

export interface ShellExecution {
  readonly runner: CommandRunner;
  /** P04's argv commands: in the sandbox only; without one, a runner that refuses every command. */
  readonly argvRunner: ArgvRunner;
  readonly environment: ExecutionEnvironment;
  /** Why `auto` fell back to the host, in full, for a one-time notice; undefined otherwise. */
  readonly fallbackReason?: string;
  /** Said to the person once, at start: a cache directory that could not be used. */
  readonly notices?: readonly string[];
  /** True when commands run in the sandbox without network: the model is told so. */
  readonly networkOff?: boolean;
  /**
   * The run ended before the probe decided (`abandonProbe`): nothing may run, and nothing was
   * learnt about the sandbox (no verdict to remember, no fallback to report).
   */
  readonly abandoned?: true;
}

export { HOST_LABEL };

/** Reasons `required` cannot be met; each names the cause and the fix. */
export const UNAVAILABLE = Object.freeze({
  notLinux: (platform: NodeJS.Platform): string =>
    `No OS sandbox on ${platformName(platform)}: the sandbox uses bubblewrap, which runs on Linux only; run with --sandbox off (or auto) to run commands on the host`,
  noProbeShell:
    "The sandbox probe needs bash or sh on PATH, even for PowerShell: install one, or run with --sandbox off",
  bwrapMissing:
    "bubblewrap (bwrap) is not installed or not on PATH: install it (apt-get install bubblewrap), or run with --sandbox off",
  prlimitMissing:
    "prlimit (util-linux), which sets the sandbox's resource limits, is not installed or not on PATH: install util-linux, or run with --sandbox off",
  noSeccompFilter: (arch: string): string =>
    `${noSeccompTable(arch)}; run with --sandbox off to run commands on the host`,
  probeFailed: (detail: string): string =>
    userNamespacesBlocked(detail)
      ? `The sandbox cannot start: user namespaces are disabled in this container or kernel (${detail}); allow them (e.g. sysctl kernel.unprivileged_userns_clone=1, or a container seccomp/AppArmor profile that permits unshare), or run with --sandbox off`
      : `The sandbox probe failed (${detail}); fix bubblewrap on this machine, or run with --sandbox off`,
});

/**
 * The one place that decides where shell commands run. `auto`: bubblewrap where its probe passes,
 * else the host, labelled with why. `required`: bubblewrap or nothing — an unusable sandbox yields
 * an `unavailable` environment (the policy then denies every shell call before any prompt) and a
 * runner that refuses to run anything. `off`: the host, labelled.
 */
export async function createShellExecution(
  options: ShellExecutionOptions,
): Promise<ShellExecution> {
  return (await startShellExecution(options)).ready;
}

/** A decision that may still be waiting for the sandbox probe. */
export interface StartedShellExecution {
  /** Its `shellName` is final now; `run` waits for the decision, then runs where it says. */
  readonly runner: CommandRunner;
  /**
   * `unavailable` (fail closed) until the decision is made, then the decided status; its
   * `decided()` starts the probe if need be and settles with the decision.
   */
  readonly environment: ExecutionEnvironment;
  /**
   * The decision, once made; it never rejects (a probe that throws has failed). With
   * `probeOnDemand`, it waits until `startProbe()` (or the first command) starts the probe.
   */
  readonly ready: Promise<ShellExecution>;
  /** Starts the probe if it has not started yet; idempotent. */
  startProbe(): void;
  /**
   * The run is over: a probe still running is stopped (its command killed, its temp workspace
   * removed), so a run that never ran a command does not wait for it to exit; one not started
   * never starts. The decision, if still pending, is then `abandoned`: nothing may run.
   */
  abandonProbe(): void;
  /**
   * Commands are to run in the sandbox without network, as planned before the probe ends: what
   * the agent is built with. `ready`'s own `networkOff` is the probe's verdict, which the model's
   * requests follow (bootstrap's NetworkNoticeGate) when a late failure sends commands to the host.
   */
  readonly networkOff: boolean;
  /** bwrap as the sandbox plan found it on PATH; absent when no plan found one. */
  readonly bwrapPath?: string;
}

export const PENDING_REASON = "the sandbox check has not finished yet";

/**
 * The same decision as createShellExecution, without making start-up wait for the ~70 ms sandbox
 * probe when it need not: the probe's outcome changes only where commands run, not what the model
 * is told, when `auto` would fall back to a shell of the same name (bash in the sandbox and bash on
 * the host; PowerShell in both with --shell powershell). Then the probe runs in the background and
 * the caller awaits `ready` before the first tool call is decided (the CLI: while the first model
 * request is in flight). Otherwise (`required`, whose failure leaves no shell at all, or a host
 * shell that would differ) the probe is awaited here.
 */
export async function startShellExecution(
  options: ShellExecutionOptions,
): Promise<StartedShellExecution> {
  if (options.sandbox === "off") return decided(onHost(options, "sandbox off"));
  const plan = planSandbox(options);
  if (plan.kind === "unusable") return decided(unusable(options, plan.reason, plan.short));
  if (options.sandbox !== "auto" || hostShellName(options) !== plan.runner.shellName) {
    return { ...decided(await probeThenDecide(options, plan)), bwrapPath: plan.bwrapPath };
  }
  const probe = new OnDemandProbe(
    (signal) => probeThenDecide(options, plan, signal),
    () => abandoned(),
  );
  if (options.probeOnDemand !== true) probe.start();
  let settled: ShellExecution | undefined;
  void probe.decision.then(
    (execution) => (settled = execution),
    () => undefined, // the caller awaits `ready` and reports it; until then, nothing runs
  );
  const pending = fixed({ kind: "unavailable", reason: PENDING_REASON });
  return {
    runner: new DeferredRunner(plan.runner, probe),
    environment: {
      status: () => (settled?.environment ?? pending).status(),
      // A command waits for the decision (and starts the probe if nothing has yet).
      decided: async () => {
        probe.start();
        await probe.decision.then(
          () => undefined,
          () => undefined,
        );
      },
    },
    ready: probe.decision,
    startProbe: () => {
      probe.start();
    },
    abandonProbe: () => {
      probe.abandon();
    },
    networkOff: !options.network,
    bwrapPath: plan.bwrapPath,
  };
}

/**
 * A probe that runs once, when first asked to; `decision` settles with its outcome, or with
 * `whenAbandoned()` when the run ends first.
 */
class OnDemandProbe {
  readonly decision: Promise<ShellExecution>;
  #run: ((signal: AbortSignal) => Promise<ShellExecution>) | undefined;
  readonly #whenAbandoned: () => ShellExecution;
  readonly #abort = new AbortController();
  #settle: (outcome: Promise<ShellExecution> | ShellExecution) => void = () => undefined;

  constructor(
    run: (signal: AbortSignal) => Promise<ShellExecution>,
    whenAbandoned: () => ShellExecution,
  ) {
    this.#run = run;
    this.#whenAbandoned = whenAbandoned;
    this.decision = new Promise((resolve) => {
      this.#settle = resolve;
    });
  }

  start(): void {
    const run = this.#run;
    if (run === undefined) return;
    this.#run = undefined;
    const signal = this.#abort.signal;
    this.#settle(run(signal).then((decided) => (signal.aborted ? this.#whenAbandoned() : decided)));
  }

  abandon(): void {
    if (this.#run !== undefined) {
      this.#run = undefined;
      this.#settle(this.#whenAbandoned());
    }
    this.#abort.abort();
  }
}

async function probeThenDecide(
  options: ShellExecutionOptions,
  plan: Extract<SandboxPlan, { kind: "ready" }>,
  signal?: AbortSignal,
): Promise<ShellExecution> {
  let probe: SandboxProbeResult;
  try {
    probe = await (options.probeSandbox ?? probeSandbox)({
      bwrapPath: plan.bwrapPath,
      shell: plan.shell,
      network: options.network,
      environment: plan.environment,
      hardening: plan.hardening,
      ...(signal === undefined ? {} : { signal }),
    });
  } catch (error) {
    probe = { ok: false, reason: errorMessage(error) };
  }
  if (!probe.ok) {
    return unusable(options, UNAVAILABLE.probeFailed(probe.reason), "sandbox probe failed");
  }
  return {
    runner: plan.runner,
    argvRunner: new SandboxedArgvRunner(plan.runner, {
      env: options.env,
      workspace: options.workspace,
      platform: options.platform,
    }),
    environment: fixed({
      kind: "isolated",
      label: plan.label,
      network: options.network ? "enabled" : "disabled",
    }),
    ...(plan.notices.length === 0 ? {} : { notices: plan.notices }),
    networkOff: !options.network,
  };
}

function decided(execution: ShellExecution): StartedShellExecution {
  return {
    runner: execution.runner,
    environment: execution.environment,
    ready: Promise.resolve(execution),
    startProbe: () => undefined,
    abandonProbe: () => undefined,
    networkOff: execution.networkOff === true,
  };
}

export const ABANDONED_REASON = "the run ended before the sandbox check finished";

/** What a probe stopped by the run's end leaves: nothing may run, nothing was learnt. */
function abandoned(): ShellExecution {
  return {
    runner: new UnavailableRunner(ABANDONED_REASON),
    argvRunner: new RefusingArgvRunner(ABANDONED_REASON),
    environment: fixed({ kind: "unavailable", reason: ABANDONED_REASON }),
    abandoned: true,
  };
}

/** The name the host shell would have if `auto` fell back to it; undefined if there is none. */
function hostShellName(options: ShellExecutionOptions): string | undefined {
  try {
    return plannedShellName({ ...options, choice: options.shell });
  } catch {
    return undefined;
  }
}

/** Runs each command wherever the decision, once made, says. */
class DeferredRunner implements CommandRunner {
  readonly shellName: string;
  /** The sandbox's; a fallback to the host shell of the same name passes the same allowlist. */
  readonly environmentNames: readonly string[] | undefined;
  readonly #probe: OnDemandProbe;

  constructor(planned: CommandRunner, probe: OnDemandProbe) {
    this.shellName = planned.shellName;
    this.environmentNames = planned.environmentNames;
    this.#probe = probe;
  }

  async run(command: string, cwd: string, options: CommandOptions): Promise<CommandResult> {
    this.#probe.start();
    return (await this.#probe.decision).runner.run(command, cwd, options);
  }
}

type SandboxPlan =
  | {
      readonly kind: "ready";
      readonly bwrapPath: string;
      readonly shell: SandboxShell;
      readonly environment: Readonly<Record<string, string>>;
      readonly hardening: SandboxHardening;
      readonly runner: BubblewrapRunner;
      readonly label: string;
      readonly notices: readonly string[];
    }
  | { readonly kind: "unusable"; readonly reason: string; readonly short: string };

function planSandbox(options: ShellExecutionOptions): SandboxPlan {
  if (options.platform !== "linux") {
    return {
      kind: "unusable",
      reason: UNAVAILABLE.notLinux(options.platform),
      short: `no sandbox on ${platformName(options.platform)}`,
    };
  }
  const bwrapPath = resolveExecutable("bwrap", options);
  if (bwrapPath === undefined) {
    return {
      kind: "unusable",
      reason: UNAVAILABLE.bwrapMissing,
      short: "bubblewrap not installed",
    };
  }
  // Decided once: the /proc masks for this host and the seccomp filter for this CPU, or no sandbox.
  const arch = options.arch ?? process.arch;
  const hardening = sandboxHardening(arch, undefined, { network: options.network });
  if (hardening === undefined) {
    return {
      kind: "unusable",
      reason: UNAVAILABLE.noSeccompFilter(arch),
      short: `no sandbox filter for ${arch}`,
    };
  }
  let limits: { prlimitPath: string; values: ResourceLimits } | undefined;
  if (options.limits !== undefined) {
    const prlimitPath = resolveExecutable("prlimit", options);
    if (prlimitPath === undefined) {
      return {
        kind: "unusable",
        reason: UNAVAILABLE.prlimitMissing,
        short: "prlimit not installed",
      };
    }
    limits = { prlimitPath, values: effectiveLimits(options.limits, ownHardLimits()) };
  }
  // PowerShell, when asked for, runs the commands; bash or sh still runs the probe's script.
  const powerShell = options.shell === "powershell" ? planPowerShell(options) : undefined;
  if (powerShell !== undefined && findPosixShellExecutable(options) === undefined) {
    return { kind: "unusable", reason: UNAVAILABLE.noProbeShell, short: "no sh for the probe" };
  }
  // With the network on, the CA bundles the host trusts, at their real paths, where the sandbox
  // shows them as the host has them and no command can change them.
  const ca = options.network
    ? caBundleEnvironment(
        options.env,
        hostFileReach({
          workspace: options.workspace,
          home: homeDirectory(options.env),
          hiddenPaths: options.hiddenPaths ?? [],
          unmasked: options.unmaskCredentials ?? [],
        }),
      )
    : undefined;
  const { executable, kind, environment, secrets } = planPosixShell({
    ...options,
    ...(ca === undefined ? {} : { extraEnvironment: ca.environment }),
  });
  const cache =
    options.cacheDirectory === undefined
      ? undefined
      : prepareCacheDirectory(options.cacheDirectory);
  const shell: SandboxShell = { executable, kind };
  const runner = new BubblewrapRunner({
    bwrapPath,
    shell,
    ...(powerShell === undefined ? {} : { powerShell: sandboxPowerShell(powerShell) }),
    workspace: options.workspace,
    home: homeDirectory(options.env),
    network: options.network,
    environment,
    secrets,
    hardening,
    harnessFiles: options.harnessFiles ?? [],
    ...(options.hostFiles === undefined ? {} : { hostFiles: options.hostFiles }),
    ...(options.placeholderLedger === undefined
      ? {}
      : { placeholderLedger: options.placeholderLedger }),
    ...(options.loadedLater === undefined ? {} : { loadedLater: options.loadedLater }),
    ...(options.loadedLaterFor === undefined ? {} : { loadedLaterFor: options.loadedLaterFor }),
    hiddenPaths: options.hiddenPaths ?? [],
    ...(cache === undefined ? {} : { cacheDirectory: cache.directory }),
    unmasked: options.unmaskCredentials ?? [],
    ...(limits === undefined ? {} : { limits }),
    ...(options.cgroups === undefined ? {} : { cgroups: options.cgroups }),
  });
  const notices = [
    ...(cache?.notice === undefined ? [] : [cache.notice]),
    ...(ca === undefined || ca.withheld.length === 0
      ? []
      : [`not passed to sandboxed commands: ${ca.withheld.join(", ")}`]),
  ];
  try {
    // Refuse `/` or the home directory now, before a probe, with the builder's own words. What
    // the workspace holds is not read here: a repository's scan would delay the first request,
    // and content a command may have planted must never turn `auto` into running every command
    // on the host; `argsFor` refuses each command for it instead.
    runner.checkWorkspace();
    const label = runner.label();
    return { kind: "ready", bwrapPath, shell, environment, hardening, runner, label, notices };
  } catch (error) {
    if (!(error instanceof SandboxSetupError)) throw error;
    const short =
      error instanceof SandboxWorkspaceError ? "workspace not sandboxable" : "workspace unusable";
    return { kind: "unusable", reason: error.message, short };
  }
}

/** The agent's own hard limits, which no sandboxed command can exceed; undefined if unknown. */
function ownHardLimits(): string | undefined {
  try {
    return readFileSync("/proc/self/limits", "utf8");
  } catch {
    return undefined;
  }
}

function sandboxPowerShell(plan: PowerShellPlan): SandboxPowerShell {
  return plan.entryPoint === undefined
    ? { executable: plan.executable }
    : { executable: plan.executable, entryPoint: plan.entryPoint };
}

function unusable(options: ShellExecutionOptions, reason: string, short: string): ShellExecution {
  if (options.sandbox === "required") {
    return {
      runner: new UnavailableRunner(reason),
      argvRunner: new RefusingArgvRunner(reason),
      environment: fixed({ kind: "unavailable", reason }),
    };
  }
  return { ...onHost(options, short), fallbackReason: reason };
}

function onHost(options: ShellExecutionOptions, why: string): ShellExecution {
  // Host commands always reach the network: the CA bundles the host trusts go with them.
  const runner = selectCommandRunner({
    ...options,
    choice: options.shell,
    extraEnvironment: caBundleEnvironment(options.env).environment,
  });
  return {
    runner,
    argvRunner: new RefusingArgvRunner(
      `commands run only in the sandbox, and there is none (${why})`,
    ),
    environment: fixed({ kind: "host", label: `${HOST_LABEL} (${why})` }),
  };
}

function fixed(status: ExecutionEnvironmentStatus): ExecutionEnvironment {
  const frozen = Object.freeze({ ...status });
  return Object.freeze({ status: () => frozen });
}

function userNamespacesBlocked(detail: string): boolean {
  return /namespace|uid map|unshare|Operation not permitted|clone/i.test(detail);
}

function platformName(platform: NodeJS.Platform): string {
  if (platform === "win32") return "Windows";
  return platform === "darwin" ? "macOS" : platform;
}
