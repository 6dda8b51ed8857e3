import { liveHostPaths, procMaskArgs, type HostPaths } from "./proc-masks.js";
import { seccompFilter } from "./seccomp-filter.js";

/**
 * What every sandboxed command gets on top of the namespaces, decided once when the sandbox is
 * planned: the /proc and /sys masks for the paths this host has, and the seccomp program for this
 * CPU architecture. Neither changes while the harness runs, so no command looks them up again.
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
  // Network off unless said otherwise: the filter then refuses UNIX sockets (seccomp-filter.ts).
  const filter = seccompFilter(arch, { network: options.network === true });
  if (filter === undefined) return undefined;
  return Object.freeze({ procMasks: procMaskArgs(host), seccompFilter: filter });
}

/** Why the sandbox refuses an architecture sandboxHardening has no table for. */
export function noSeccompTable(arch: string): string {
  return `The sandbox cannot run on ${arch}: it has a seccomp filter only for x64 and arm64, and without one a command could leave a setuid file behind`;
}
