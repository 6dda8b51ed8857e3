import { liveHostPaths, procMaskArgs, type HostPaths } from "./proc-masks.js";
import { hasSeccompFilter, seccompFilter } from "./seccomp-filter.js";

/**
 * What every sandboxed command gets on top of the namespaces, decided once per run: the /proc and
 * /sys masks for the paths this host has, and the seccomp program for this CPU architecture.
 * Neither changes while the harness runs, so no command looks them up again. Each is worked out
 * at its first use (the probe's), not when the sandbox is planned: the plan only needs to know
 * that the architecture has a filter, and the run's first request need not wait for the rest.
 */
export interface SandboxHardening {
  /** bwrap argument fragments placed right after `--proc /proc` (proc-masks.ts). */
  readonly procMasks: readonly (readonly string[])[];
  /** The cBPF program handed to `bwrap --seccomp` (seccomp-filter.ts). */
  readonly seccompFilter: Uint8Array;
}

/**
 * The hardening for `arch` (Node's `process.arch`), or undefined where there is no seccomp table:
 * the sandbox must then refuse to run rather than run without the filter.
 */
export function sandboxHardening(
  arch: string,
  host: HostPaths = liveHostPaths,
  options: { readonly network?: boolean } = {},
): SandboxHardening | undefined {
  if (!hasSeccompFilter(arch)) return undefined;
  let procMasks: readonly (readonly string[])[] | undefined;
  let filter: Uint8Array | undefined;
  return Object.freeze({
    get procMasks() {
      procMasks ??= procMaskArgs(host);
      return procMasks;
    },
    get seccompFilter() {
      // Network off unless said otherwise: the filter then refuses UNIX sockets (seccomp-filter.ts).
      filter ??= seccompFilter(arch, { network: options.network === true });
      if (filter === undefined) throw new Error(noSeccompTable(arch));
      return filter;
    },
  });
}

/** Why the sandbox refuses an architecture sandboxHardening has no table for. */
export function noSeccompTable(arch: string): string {
  return `The sandbox cannot run on ${arch}: it has a seccomp filter only for x64 and arm64, and without one a command could leave a setuid file behind`;
}
