/**
 * The shell port: run one command text in a shell, capture bounded output (head and tail, the
 * whole saved to a spill file when one is given), never hang.
 */

export interface CommandOptions {
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly signal?: AbortSignal;
  /**
   * Called with output as it arrives (stdout and stderr, decoded leniently), for display only: of
   * a long read (over 16 KiB) only its end.
   */
  readonly onOutput?: (text: string) => void;
  /** Where the whole output goes once it is longer than `maxOutputBytes`; absent: nowhere. */
  readonly spill?: OutputSpill;
  /** Values replaced by `[redacted]` in the output (and the saved file) before anyone reads it. */
  readonly secrets?: readonly string[];
  /**
   * Called once the process exists, with its id: the sandbox (bwrap, whose PID namespace holds
   * the command) or the shell on the host. For the journal's recovery record; never decides.
   */
  readonly onSpawn?: (pid: number) => void;
  /**
   * No person approved this very command at a prompt (a rule or an earlier "for this run" let it
   * run): a sandbox that holds more back from such a command (the daily profile keeps the files
   * the host loads later read-only to it) does so now.
   */
  readonly unapproved?: boolean;
}

/** A file for one command's whole output, opened only when the output overflows. */
export interface OutputSpill {
  /** Opens the file; undefined when it cannot be had safely (the output is then only cut). */
  open(): OutputSpillFile | undefined;
}

/** Hands out one spill per call, named after the call's id. */
export interface OutputSpillStore {
  /**
   * Called before each command starts: makes the store the first time and proves it is still the
   * harness's own. Throws OutputStoreError when it is not; the command must then not run.
   */
  prepareForCommand(): void;
  spillFor(callId: string): OutputSpill;
}

export interface OutputSpillFile {
  /** The file's path as the model names it: relative to the workspace. */
  readonly path: string;
  write(bytes: Uint8Array): void;
  close(): void;
  /** After close: how many bytes the file's cap cut from its middle (0: none). */
  cutBytes?(): number;
}

/** What a long output left out between its head (`output`) and its tail. */
export interface OmittedOutput {
  readonly bytes: number;
  readonly lines: number;
  readonly tail: string;
  /** Where the whole output was saved, when it could be. */
  readonly savedTo?: string;
  /**
   * Bytes cut from the middle of the saved file, when the output was over the saved-output cap:
   * the file then holds only the head and the tail, with the cut marked.
   */
  readonly savedCutBytes?: number;
  readonly totalBytes: number;
}

export interface CommandResult {
  /** The command's exit code; null when it was killed (timeout or abort). */
  readonly exitCode: number | null;
  /**
   * stdout and stderr interleaved as they arrived (each stderr line marked `[stderr] `), decoded as
   * UTF-8; when truncated, only the head, and `omitted` holds the tail.
   */
  readonly output: string;
  readonly truncated: boolean;
  readonly omitted?: OmittedOutput;
  readonly timedOut: boolean;
  /**
   * What the sandbox says about this run (a limit it hit, a file it saw made), apart from the
   * output: each note whole, whatever characters it holds (a path may hold a newline). The
   * command tool adds them to what the model reads; the person is shown them from here.
   */
  readonly notes?: readonly string[];
}

export class CommandStartError extends Error {
  override readonly name: string = "CommandStartError";
}

/**
 * The store for whole outputs is no longer the harness's own (a command replaced it): the command
 * is refused like one that could not start.
 */
export class OutputStoreError extends CommandStartError {
  override readonly name: string = "OutputStoreError";
}

export interface CommandRunner {
  /** The shell's display name, e.g. `bash` or `PowerShell 7`; shown to the model and the person. */
  readonly shellName: string;
  /**
   * The names (never the values) of the environment variables a command receives, sorted: part
   * of the call's final arguments in the audit trail. Absent where the runner cannot say.
   */
  readonly environmentNames?: readonly string[];
  run(command: string, cwd: string, options: CommandOptions): Promise<CommandResult>;
}

/**
 * Runs one program with its arguments and no shell (P04's `run_command`). `argv[0]` is a bare
 * program name; the runner finds it on the trusted PATH (never in the workspace) or refuses.
 */
export interface ArgvRunner {
  /** As `CommandRunner.environmentNames`. */
  readonly environmentNames?: readonly string[];
  run(argv: readonly string[], cwd: string, options: CommandOptions): Promise<CommandResult>;
}

/** The sorted names of an environment: what the audit may show of it. */
export function environmentNamesOf(environment: Readonly<Record<string, string>>): string[] {
  return Object.keys(environment).sort();
}
