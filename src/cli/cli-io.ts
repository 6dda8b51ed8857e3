import type { ProgressOutput } from "./terminal/progress/progress-reporter.js";
import type { TerminalEcho } from "./terminal/input/terminal-echo.js";
import type { TerminalInput } from "./terminal/input/terminal-input.js";

/** Everything the CLI touches of its process, so tests can run it in-process. */
export interface CliIo {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly platform: NodeJS.Platform;
  readonly stdin: TerminalInput;
  /**
   * stdin is a shell's pipe (empty or not: it cannot be told without reading it) or a redirected
   * file with something in it (`git diff | agent …`),
   * whose text the agent does not read: said once, so nobody thinks the model saw it.
   */
  readonly stdinPiped?: boolean;
  readonly stdout: ProgressOutput;
  readonly stderr: ProgressOutput;
  /** The echo of stdin's terminal, turned off while a conversation's turn runs; none when piped. */
  readonly echo?: TerminalEcho;
  /** Fires when the person presses Ctrl-C outside the approval prompt. */
  readonly interrupts: { on(event: "SIGINT", listener: () => void): unknown };
}
