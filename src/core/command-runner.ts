/** The shell port: run one command text in a shell, capture bounded output, never hang. */

export interface CommandOptions {
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly signal?: AbortSignal;
  /** Called with output as it arrives (stdout and stderr, decoded leniently), for display only. */
  readonly onOutput?: (text: string) => void;
}

export interface CommandResult {
  /** The command's exit code; null when it was killed (timeout or abort). */
  readonly exitCode: number | null;
  /** stdout and stderr interleaved as they arrived, decoded as UTF-8, capped. */
  readonly output: string;
  readonly truncated: boolean;
  readonly timedOut: boolean;
}

export class CommandStartError extends Error {
  override readonly name: string = "CommandStartError";
}

export interface CommandRunner {
  /** The shell's display name, e.g. `bash` or `PowerShell 7`; shown to the model and the person. */
  readonly shellName: string;
  run(command: string, cwd: string, options: CommandOptions): Promise<CommandResult>;
}
