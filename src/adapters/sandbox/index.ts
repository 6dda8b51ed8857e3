/**
 * The command-runner port (`CommandRunner` in core/ports/command-runner.ts) inside bubblewrap on Linux:
 * a read-only root, the workspace as the one writable host directory (its git metadata read-only
 * again), no network unless asked, every namespace unshared, /proc/sys read-only, and a seccomp
 * filter against setuid/setgid files. The probe proves that once per run.
 */
export {
  BubblewrapRunner,
  type SandboxHostFiles,
  type SandboxPowerShell,
  type SandboxShell,
} from "./bubblewrap.js";
export type { SandboxCgroups } from "./cgroup-run.js";
export { probeSandbox, type SandboxProbeResult } from "./bubblewrap-probe.js";
export { SandboxContentError, SandboxSetupError, SandboxWorkspaceError } from "./sandbox-errors.js";
export { noSeccompTable, sandboxHardening, type SandboxHardening } from "./sandbox-hardening.js";
export { prepareCacheDirectory, type PreparedCache } from "./cache-directory.js";
export { isCredentialPath } from "./credential-masks.js";
export { CREDENTIAL_PATHS } from "./credential-paths.js";
export { hostFileReach, type HostFileReachOptions } from "./host-file-reach.js";
export { NETWORK_OFF_NOTE } from "./failure-notes.js";
export {
  DEFAULT_RESOURCE_LIMITS,
  describeLimits,
  effectiveLimits,
  parseResourceLimits,
  RESOURCE_LIMIT_NAMES,
  ResourceLimitError,
  type ResourceLimitName,
  type ResourceLimits,
} from "./resource-limits.js";
export { SANDBOX_CACHE } from "./sandbox-environment.js";
export { unsafeWorkspace, type UnsafeWorkspace } from "./unsafe-workspace.js";
