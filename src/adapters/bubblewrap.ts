import { lstatSync, realpathSync } from "node:fs";
import path from "node:path";
import type { CommandOptions, CommandResult, CommandRunner } from "../core/command-runner.js";
import { bubblewrapArgs } from "./bubblewrap-args.js";
import { posixShellArgs, type PosixShellKind } from "./posix-shell.js";
import { SandboxSetupError } from "./sandbox-errors.js";
import { runSandboxedProcess, STATUS_FD } from "./sandboxed-process.js";

export interface SandboxShell {
  /** Absolute host path of bash or sh; the root filesystem is visible read-only inside. */
  readonly executable: string;
  readonly kind: PosixShellKind;
}

export interface BubblewrapRunnerOptions {
  /** Absolute path of bwrap, from executable-resolution (never from the workspace). */
  readonly bwrapPath: string;
  readonly shell: SandboxShell;
  /** The workspace as configured; the runner binds its real path read-write. */
  readonly workspace: string;
  /** The home directory; a workspace that is it (or above it) is refused. */
  readonly home: string | undefined;
  readonly network: boolean;
  /** The allowlisted environment from command-environment. */
  readonly environment: Readonly<Record<string, string>>;
}

/**
 * Runs each command in bubblewrap: the host filesystem read-only except the workspace (and its
 * `.git` read-only again), private /tmp and /run, no network unless asked, no capabilities, only
 * the allowlisted environment. The command's exit code passes through; a sandbox that could not
 * be set up throws SandboxSetupError.
 */
export class BubblewrapRunner implements CommandRunner {
  readonly shellName: string;
  readonly #options: BubblewrapRunnerOptions;

  constructor(options: BubblewrapRunnerOptions) {
    this.#options = options;
    this.shellName = options.shell.kind;
  }

  /** What the approval prompt and the audit line say about where a command runs. */
  label(): string {
    const network = this.#options.network ? "network on" : "network off";
    return `sandbox: bwrap (${network}, writable: ${realWorkspace(this.#options.workspace)})`;
  }

  async run(command: string, cwd: string, options: CommandOptions): Promise<CommandResult> {
    const args = this.argsFor(command, cwd);
    return runSandboxedProcess(this.#options.bwrapPath, args, this.#options.environment, options);
  }

  /** The full bwrap argv for one command; paths are resolved now, as the workspace is now. */
  argsFor(command: string, cwd: string): string[] {
    const workspace = realWorkspace(this.#options.workspace);
    const realCwd = realDirectory(cwd, "Working directory");
    return bubblewrapArgs({
      workspace,
      cwd: realCwd,
      readOnlyPaths: gitMetadata(workspace),
      home: this.#options.home === undefined ? undefined : realOrSelf(this.#options.home),
      network: this.#options.network,
      environment: this.#options.environment,
      statusFd: STATUS_FD,
      command: [
        this.#options.shell.executable,
        ...posixShellArgs(this.#options.shell.kind, command),
      ],
    });
  }
}

function realWorkspace(workspace: string): string {
  return realDirectory(workspace, "Workspace");
}

function realDirectory(directory: string, what: string): string {
  try {
    const real = realpathSync.native(directory);
    if (lstatSync(real).isDirectory()) return real;
  } catch {
    // reported below
  }
  throw new SandboxSetupError(`${what} does not exist or is not a directory: ${directory}`);
}

function realOrSelf(candidate: string): string {
  try {
    return realpathSync.native(candidate);
  } catch {
    return path.resolve(candidate);
  }
}

/**
 * The `.git` directory, or a worktree's `.git` file, by its real path when that lies inside the
 * workspace. One that leads outside is already read-only (or hidden under /tmp) in the sandbox.
 */
function gitMetadata(workspace: string): string[] {
  const candidate = path.join(workspace, ".git");
  let real: string;
  try {
    lstatSync(candidate);
    real = realpathSync.native(candidate);
  } catch {
    return [];
  }
  const relative = path.relative(workspace, real);
  const inside =
    relative !== "" &&
    relative !== ".." &&
    !relative.startsWith("../") &&
    !path.isAbsolute(relative);
  return inside ? [real] : [];
}
