/**
 * The execution-environment port (core/policy/execution-environment.ts): where shell commands run. It
 * chooses, once per run, between the sandbox and the host shell and says which in every prompt
 * and audit line; a sandbox that is required but cannot be had refuses every command.
 */
export {
  ABANDONED_REASON,
  createShellExecution,
  HOST_LABEL,
  PENDING_REASON,
  startShellExecution,
  type SandboxMode,
  type ShellExecution,
  type ShellExecutionOptions,
  type StartedShellExecution,
} from "./shell-execution.js";
export { sandboxProbeFingerprint, type ProbeFingerprintOptions } from "./probe-fingerprint.js";
