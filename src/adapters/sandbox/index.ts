/**
 * The command-runner port (`CommandRunner` in core/command-runner.ts) inside bubblewrap on Linux:
 * a read-only root, the workspace as the one writable host directory (its git metadata read-only
 * again), no network unless asked, every namespace unshared, /proc/sys read-only, and a seccomp
 * filter against setuid/setgid files. The probe proves that once per run.
 */
export { BubblewrapRunner, type SandboxPowerShell, type SandboxShell } from "./bubblewrap.js";
export { probeSandbox, type SandboxProbeResult } from "./bubblewrap-probe.js";
export { SandboxContentError, SandboxSetupError, SandboxWorkspaceError } from "./sandbox-errors.js";
export { noSeccompTable, sandboxHardening, type SandboxHardening } from "./sandbox-hardening.js";
export { unsafeWorkspace, type UnsafeWorkspace } from "./unsafe-workspace.js";
