import type { CommandOptions, CommandResult, CommandRunner } from "../../core/command-runner.js";
import { killTreeStrategyFor, type KillTreeStrategy } from "../process/kill-tree.js";
import { runProcess } from "../process/process-runner.js";

export type PosixShellKind = "bash" | "sh";

/**
 * No startup files: a `.bashrc` may print, prompt or change behaviour between machines. (Bash
 * would also read `$BASH_ENV`, and sh `$ENV`; the environment allowlist never passes them.)
 */
export function posixShellArgs(kind: PosixShellKind, command: string): string[] {
  return kind === "bash" ? ["--noprofile", "--norc", "-c", command] : ["-c", command];
}

export interface PosixShellRunnerOptions {
  /** Absolute path to bash or sh, from executable-resolution. */
  readonly executable: string;
  readonly kind: PosixShellKind;
  /** The allowlisted environment from command-environment. */
  readonly environment: Readonly<Record<string, string>>;
  readonly platform: NodeJS.Platform;
}

export class PosixShellRunner implements CommandRunner {
  readonly shellName: string;
  /** Absolute path of the shell binary; shown in diagnostics, checked by tests. */
  readonly executable: string;
  readonly #options: PosixShellRunnerOptions;
  // Follows from the options alone, so it is worked out once, not per command.
  readonly #killTree: KillTreeStrategy;

  constructor(options: PosixShellRunnerOptions) {
    this.#options = options;
    this.executable = options.executable;
    this.shellName = options.kind;
    this.#killTree = killTreeStrategyFor(options.platform, options.environment);
  }

  run(command: string, cwd: string, options: CommandOptions): Promise<CommandResult> {
    return runProcess({
      executable: this.executable,
      args: posixShellArgs(this.#options.kind, command),
      cwd,
      env: this.#options.environment,
      timeoutMs: options.timeoutMs,
      maxOutputBytes: options.maxOutputBytes,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      killTree: this.#killTree,
    });
  }
}
