/**
 * The command-runner port (`CommandRunner` in core/ports/command-runner.ts) on the host: bash or sh, and
 * PowerShell (pwsh or Windows PowerShell). shell-selection.ts decides which one, once; the runners
 * only run what they were handed. The sandbox reuses these pieces to run bash or PowerShell inside bwrap.
 */
export {
  createShellRunner,
  findPosixShellExecutable,
  NO_POSIX_SHELL,
  planPosixShell,
  planPowerShell,
  planShell,
  plannedShellName,
  selectCommandRunner,
  ShellUnavailableError,
  type ShellChoice,
  type PosixShellPlan,
  type PowerShellPlan,
  type ShellPlan,
  type ShellSelectionOptions,
} from "./shell-selection.js";
export { buildCommandEnvironment, commandEnvironmentMayHold } from "./command-environment.js";
export {
  caBundleEnvironment,
  CA_BUNDLE_NAMES,
  type CaBundles,
  type RealPathCheck,
} from "./ca-bundle-environment.js";
export { passEnvNotices } from "./pass-env-notices.js";
export {
  resolveExecutable,
  resolveProgram,
  trustedPathValue,
  type ExecutableLookup,
  type ProgramResolution,
} from "./executable-resolution.js";
export { posixShellArgs, PosixShellRunner, type PosixShellKind } from "./posix-shell.js";
export {
  powerShellCommandArgs,
  powerShellDisplayName,
  powerShellEnvironment,
  PowerShellRunner,
} from "./powershell.js";
export { SHELL_STARTUP_FILES } from "./startup-files.js";
