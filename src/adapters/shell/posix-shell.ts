import type {
  CommandOptions,
  CommandResult,
  CommandRunner,
} from "../../core/ports/command-runner.js";
import { environmentNamesOf } from "../../core/ports/command-runner.js";
import { captureOptions, runProcess, type KillTreeStrategy } from "../process/index.js";

export type PosixShellKind = "bash" | "sh";

/**
 * No startup files: a `.bashrc` may print, prompt or change behaviour between machines. (Bash
 * would also read `$BASH_ENV`, and sh `$ENV`; command-environment.ts never passes them, not even
 * for `--pass-env`: see shell-startup-names.ts.)
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
  /** Values replaced by `[redacted]` in the output: the harness's own secrets. */
  readonly secrets?: readonly string[];
  /** Decided with the shell (shell-selection), not looked up again here. */
  readonly killTree: KillTreeStrategy;
}

export class PosixShellRunner implements CommandRunner {
  readonly shellName: string;
  /** Absolute path of the shell binary; shown in diagnostics, checked by tests. */
  readonly executable: string;
  readonly #options: PosixShellRunnerOptions;

  constructor(options: PosixShellRunnerOptions) {
    this.#options = options;
    this.executable = options.executable;
    this.shellName = options.kind;
  }

  get environmentNames(): readonly string[] {
    return environmentNamesOf(this.#options.environment);
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
      ...(options.onOutput === undefined ? {} : { onOutput: options.onOutput }),
      killTree: this.#options.killTree,
      // On the host nothing else ends the command with a harness killed by `kill -9`.
      guardAgainstOrphans: true,
      ...captureOptions(options, this.#options.secrets),
    });
  }
}
