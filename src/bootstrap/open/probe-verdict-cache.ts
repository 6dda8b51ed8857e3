/**
 * The sandbox probe's verdict, remembered per machine (the state root's `sandbox-probe.json`) so
 * that the first model request can say at once whether the network is off, instead of waiting
 * ~70 ms for the probe on every start. The memory only chooses the first request's text
 * (NetworkNoticeGate): the probe still runs on every start, and every tool call waits for it.
 */
import {
  sandboxProbeFingerprint,
  type ShellExecution,
  type StartedShellExecution,
} from "../../adapters/execution/index.js";
import {
  readProbeVerdict,
  writeProbeVerdict,
  type ProbeVerdict,
} from "../../adapters/state/index.js";
import type { ModelClient } from "../../core/ports/model.js";
import { NetworkNoticeGate } from "../execution/network-notice-gate.js";
import type { ExecutionSettings } from "../run-settings.js";

export interface ProbeVerdictCache {
  /** The verdict remembered for this machine and these settings; undefined: none, so wait. */
  readonly remembered: ProbeVerdict | undefined;
  /** Records the probe's own verdict when it is not the one remembered. */
  remember(decided: ShellExecution): void;
}

export function openProbeVerdictCache(
  stateRoot: string,
  settings: Pick<ExecutionSettings, "sandbox" | "network" | "shell" | "host">,
  execution: Pick<StartedShellExecution, "bwrapPath">,
): ProbeVerdictCache {
  const fingerprint = sandboxProbeFingerprint({
    sandbox: settings.sandbox,
    network: settings.network,
    shell: settings.shell,
    platform: settings.host.platform,
    bwrapPath: execution.bwrapPath,
  });
  const remembered = readProbeVerdict(stateRoot, fingerprint);
  return {
    remembered,
    remember: (decided) => {
      if (decided.abandoned === true) return; // the probe was stopped: it found nothing
      const verdict = verdictOf(decided);
      if (remembered !== undefined && sameVerdict(remembered, verdict)) return;
      writeProbeVerdict(stateRoot, fingerprint, verdict);
    },
  };
}

/**
 * The model client that says whether the network is off as the probe decides, from the
 * remembered verdict when there is one (only when the agent was built saying so: otherwise the
 * probe changes nothing the model reads and nothing is read or written).
 */
export function networkNoticeGateFor(
  inner: ModelClient,
  execution: Pick<StartedShellExecution, "ready" | "networkOff" | "startProbe">,
  openCache: () => ProbeVerdictCache,
): ModelClient {
  // A probe that failed showed no sandbox without a network: the notice is not kept. (Handled
  // here too because the gate never awaits it when not told: no unhandled rejection.)
  const probed = execution.ready.then(
    (decided) => decided.networkOff === true,
    () => false,
  );
  if (!execution.networkOff) return new NetworkNoticeGate(inner, false, probed);
  const cache = openCacheOrNothing(openCache);
  // Nothing remembered: the first request waits for the probe, so it starts now.
  if (cache?.remembered === undefined) execution.startProbe();
  if (cache === undefined) return new NetworkNoticeGate(inner, true, probed);
  // The memory only saves a wait: a probe that failed, or a verdict that cannot be written,
  // leaves it as it was.
  void execution.ready
    .then((decided) => {
      cache.remember(decided);
    })
    .catch(() => undefined);
  return new NetworkNoticeGate(inner, true, probed, cache.remembered?.networkOff);
}

/**
 * The cache, or nothing remembered when it cannot be opened (the probe's fingerprint reads the
 * shell and bwrap binaries, the state root the cache file): the first request then waits for the
 * probe, as on a first start, rather than the run failing for an optimisation.
 */
function openCacheOrNothing(openCache: () => ProbeVerdictCache): ProbeVerdictCache | undefined {
  try {
    return openCache();
  } catch {
    return undefined;
  }
}

function verdictOf(decided: ShellExecution): ProbeVerdict {
  return {
    sandboxUsable: decided.fallbackReason === undefined,
    ...(decided.fallbackReason === undefined ? {} : { fallbackReason: decided.fallbackReason }),
    networkOff: decided.networkOff === true,
  };
}

/** The fallback's wording may quote bwrap's error, which can vary: only the outcome counts. */
function sameVerdict(a: ProbeVerdict, b: ProbeVerdict): boolean {
  return a.sandboxUsable === b.sandboxUsable && a.networkOff === b.networkOff;
}
