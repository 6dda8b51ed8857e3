/**
 * A real terminal of a fixed size: a private tmux server (its own socket, so nothing else's
 * sessions are touched) running one command. `rows()` is what a person would see right now,
 * after the terminal's own wrapping and scrolling, as tmux draws it.
 *
 *   const term = await TmuxTerminal.start(["node", "dist/cli.js", "-p", "hi"], { env, columns: 80, rows: 24 });
 *   const rows = await term.waitForScreen((shown) => shown.some((row) => row.includes("[y/N]")));
 *   term.type("n", "Enter");
 *   await term.close();
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { shellQuote } from "./pty.js";

export interface TmuxOptions {
  readonly env: Readonly<Record<string, string>>;
  readonly columns: number;
  readonly rows: number;
  readonly cwd?: string;
  /** How long `waitForScreen` waits before failing with the screen so far. Default 20 s. */
  readonly waitTimeoutMs?: number;
}

export const TMUX_REASON = "(needs tmux)";

export function isTmuxAvailable(): boolean {
  return process.platform !== "win32" && spawnSync("tmux", ["-V"]).status === 0;
}

/** The pane's title once its command has ended and everything it printed has been drawn. */
const ENDED_TITLE = "agent-test-command-ended";

/**
 * tmux discards what a pane's process printed but tmux had not drawn yet when the process ends
 * (tmux/tmux#506): on a loaded machine the tail of a long answer went missing. So the command
 * runs under a shell that, once it ends, sets the pane's title (drawn after all that came before)
 * and then waits to be killed. `trap :` lets Ctrl-C reach the command without ending the shell;
 * a trapped (not ignored) signal is back to its default in the command.
 */
const UNTIL_DRAWN = `trap : INT; "$@"; printf '\\033]2;${ENDED_TITLE}\\033\\\\'; exec tail -f /dev/null`;

export class TmuxTerminal {
  readonly #socket: string;
  readonly #timeoutMs: number;

  private constructor(socket: string, timeoutMs: number) {
    this.#socket = socket;
    this.#timeoutMs = timeoutMs;
  }

  static start(argv: readonly string[], options: TmuxOptions): TmuxTerminal {
    const socket = `agent-test-${randomBytes(6).toString("hex")}`;
    // env -i: the command sees exactly the test's environment, not the tmux server's.
    const variables = Object.entries(options.env).map(([name, value]) => `${name}=${value}`);
    const command = ["sh", "-c", UNTIL_DRAWN, "sh", "env", "-i", ...variables, ...argv]
      .map(shellQuote)
      .join(" ");
    const started = spawnSync(
      "tmux",
      [
        "-u",
        "-L",
        socket,
        "-f",
        "/dev/null",
        "new-session",
        "-d",
        "-x",
        String(options.columns),
        "-y",
        String(options.rows),
        ...(options.cwd === undefined ? [] : ["-c", options.cwd]),
        command,
      ],
      { encoding: "utf8", env: { ...process.env, TMUX: "" } },
    );
    if (started.status !== 0) throw new Error(`tmux did not start: ${started.stderr}`);
    const terminal = new TmuxTerminal(socket, options.waitTimeoutMs ?? 20_000);
    // The size is fixed: no client is attached to resize the window.
    terminal.#tmux(["set-option", "-g", "remain-on-exit", "on"]);
    return terminal;
  }

  /** The visible rows exactly as drawn, without joining wrapped lines. */
  rows(): string[] {
    return this.#tmux(["capture-pane", "-p", "-t", "0"])
      .split("\n")
      .map((line) => line.trimEnd());
  }

  /** Every row the terminal has shown, scrolled-off ones included, as drawn. */
  history(): string[] {
    return this.#tmux(["capture-pane", "-p", "-S", "-", "-t", "0"])
      .split("\n")
      .map((line) => line.trimEnd());
  }

  /** Where the cursor is: a zero-based column, and a row of `rows()`. */
  cursor(): { readonly column: number; readonly row: number } {
    const [column, row] = this.#tmux([
      "display-message",
      "-p",
      "-t",
      "0",
      "#{cursor_x} #{cursor_y}",
    ])
      .trim()
      .split(" ")
      .map(Number);
    return { column: column ?? -1, row: row ?? -1 };
  }

  /** Waits until `done` holds for the screen and the cursor, read one after the other. */
  async waitForScreen(
    done: (rows: readonly string[], cursor: { column: number; row: number }) => boolean,
  ): Promise<string[]> {
    const deadline = Date.now() + this.#timeoutMs;
    for (;;) {
      const rows = this.rows();
      if (done(rows, this.cursor())) return rows;
      if (Date.now() > deadline) {
        throw new Error(`timed out waiting for the screen; it shows:\n${rows.join("\n")}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Waits until the command has ended and all it printed is drawn (its pane stays). */
  async waitForExit(): Promise<void> {
    const deadline = Date.now() + this.#timeoutMs;
    const ended = (): boolean => {
      const [dead, title] = this.#tmux([
        "display-message",
        "-p",
        "-t",
        "0",
        "#{pane_dead} #{pane_title}",
      ])
        .trim()
        .split(" ");
      return dead === "1" || title === ENDED_TITLE;
    };
    while (!ended()) {
      if (Date.now() > deadline) throw new Error("timed out waiting for the command to end");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** tmux key names (`Enter`, `C-c`) or literal text. */
  type(...keys: string[]): void {
    this.#tmux(["send-keys", "-t", "0", ...keys]);
  }

  /**
   * Pastes `text` as a terminal does: wrapped in ESC[200~ … ESC[201~ when the program turned on
   * bracketed paste, each newline sent as CR.
   */
  paste(text: string): void {
    const buffer = `paste-${randomBytes(4).toString("hex")}`;
    this.#tmux(["set-buffer", "-b", buffer, "--", text]);
    this.#tmux(["paste-buffer", "-p", "-d", "-b", buffer, "-t", "0"]);
  }

  close(): void {
    spawnSync("tmux", ["-L", this.#socket, "kill-server"]);
  }

  #tmux(args: readonly string[]): string {
    const result = spawnSync("tmux", ["-u", "-L", this.#socket, ...args], { encoding: "utf8" });
    if (result.status !== 0) throw new Error(`tmux ${args.join(" ")}: ${result.stderr}`);
    return result.stdout;
  }
}
