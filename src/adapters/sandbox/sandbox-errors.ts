import { CommandStartError } from "../../core/ports/command-runner.js";

/**
 * The sandbox could not be set up, so the command never ran. A subclass of CommandStartError so the
 * shell tool reports it as `shell_start_failed`, never as the command's own non-zero exit.
 */
export class SandboxSetupError extends CommandStartError {
  override readonly name: string = "SandboxSetupError";
}

/** A workspace the sandbox will not make writable: `/`, the home directory, or one above it. */
export class SandboxWorkspaceError extends SandboxSetupError {
  override readonly name = "SandboxWorkspaceError";
}

/**
 * What the workspace holds keeps the git metadata from being made read-only (a symlinked `.git`,
 * a workspace laid out as a git dir, too much to scan, an unreadable directory). A command can
 * cause any of these, so it refuses that command; it never means "run on the host instead".
 */
export class SandboxContentError extends SandboxSetupError {
  override readonly name = "SandboxContentError";
}
