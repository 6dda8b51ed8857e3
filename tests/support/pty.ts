/**
 * Runs a command under a real pseudo-terminal, the way a person at a terminal runs it, using
 * util-linux `script -qefc '<cmd>' /dev/null`. The test types into the terminal through `script`'s
 * stdin and reads back everything the terminal showed: the program's stdout and stderr merged, with
 * the terminal's own `\r\n` line endings and the echo of what was typed. Use a plain (non-pty) run
 * when stdout and stderr must be told apart.
 *
 *   const session = PtySession.start(["node", "dist/agent.cjs", "--prompt", "hi"], { env, cwd });
 *   await session.waitForOutput("Allow this call? [y/N] ");
 *   session.type("y\r");
 *   const { exitCode, output } = await session.exited;
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";

export interface PtyOptions {
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** How long `waitForOutput` waits before failing with the transcript so far. Default 20 s. */
  readonly waitTimeoutMs?: number;
}

export interface PtyResult {
  /** The program's exit code as `script -e` passes it on; `null` when `script` itself was killed. */
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Everything the terminal showed, raw (escape sequences, `\r\n`). */
  readonly output: string;
}

/** Keys as a terminal sends them. */
export const KEY = Object.freeze({
  enter: "\r",
  ctrlC: "\u0003",
  ctrlD: "\u0004",
});

/** For test names: why a terminal test is skipped where it is. */
export const PTY_REASON = "(needs util-linux `script` for a pty: Linux only)";

/** True where util-linux `script` (with `-e`, `-f`, `-c`) is installed: Linux, not macOS or Windows. */
export function isPtyAvailable(): boolean {
  if (process.platform === "win32") return false;
  const probe = spawnSync("script", ["--version"], { encoding: "utf8" });
  return probe.status === 0 && `${probe.stdout}${probe.stderr}`.includes("util-linux");
}

/** Quotes one argument for `sh -c`: single quotes hold everything except a single quote. */
export function shellQuote(argument: string): string {
  return `'${argument.replaceAll("'", `'\\''`)}'`;
}

/**
 * The lines a person would read on the screen: `\r` returns to the start of the line and later text
 * overwrites, the erase-line and cursor-column sequences readline and the spinner use are applied,
 * and every other escape sequence is dropped.
 */
export function terminalScreenLines(raw: string): string[] {
  // One cell per column; the second cell of a wide character holds "".
  const lines: string[][] = [[]];
  let row = 0;
  let line: string[] = lines[0] ?? [];
  let column = 0;
  const chars = Array.from(raw);
  for (let index = 0; index < chars.length; index += 1) {
    const char = chars[index] ?? "";
    if (char === "\n") {
      row += 1;
      if (row === lines.length) lines.push([]);
      line = lines[row] ?? [];
      column = 0;
    } else if (char === "\r") {
      column = 0;
    } else if (char === "\u001b" && chars[index + 1] === "[") {
      let end = index + 2;
      while (end < chars.length && !isCsiFinal(chars[end] ?? "")) end += 1;
      const parameter = chars.slice(index + 2, end).join("");
      const final = chars[end];
      if (final === "K" && parameter === "2") line.length = 0;
      if ((final === "K" && (parameter === "" || parameter === "0")) || final === "J") {
        line.length = Math.min(line.length, column);
      }
      // Erase below (as the reporter does after moving up over a streamed draft).
      if (final === "J" && (parameter === "" || parameter === "0")) lines.length = row + 1;
      if (final === "A") {
        row = Math.max(0, row - Number(parameter || "1"));
        line = lines[row] ?? [];
      }
      if (final === "G") column = Math.max(0, Number(parameter || "1") - 1);
      index = end;
    } else if (char === "\u001b") {
      index += 1; // a two-character escape; nothing the CLI relies on
    } else {
      while (line.length < column) line.push(" ");
      line[column] = char;
      column += 1;
      // A wide character fills two cells, as readline assumes when it places the cursor.
      if (isWide(char)) line[column++] = "";
    }
  }
  return lines.map((cells) => cells.join(""));
}

function isWide(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf && code !== 0x303f) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1f64f) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}

function isCsiFinal(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return code >= 0x40 && code <= 0x7e;
}

export class PtySession {
  readonly exited: Promise<PtyResult>;
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #waitTimeoutMs: number;
  #output = "";
  #searchFrom = 0;
  #done = false;
  readonly #listeners = new Set<() => void>();

  private constructor(child: ChildProcessWithoutNullStreams, waitTimeoutMs: number) {
    this.#child = child;
    this.#waitTimeoutMs = waitTimeoutMs;
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    const collect = (chunk: string): void => {
      this.#output += chunk;
      this.#notify();
    };
    child.stdout.on("data", collect);
    // `script` reports its own failures here; keep them in the transcript so a test shows them.
    child.stderr.on("data", collect);
    // Typing into a terminal whose program already ended is not an error worth crashing over.
    child.stdin.on("error", () => undefined);
    this.exited = new Promise((resolve, reject) => {
      child.once("error", reject);
      child.once("close", (exitCode, signal) => {
        this.#done = true;
        this.#notify();
        child.stdin.destroy();
        resolve({ exitCode, signal, output: this.#output });
      });
    });
  }

  /** Starts `argv` (program first) under a new pseudo-terminal. */
  static start(argv: readonly string[], options: PtyOptions): PtySession {
    if (argv.length === 0) throw new Error("PtySession.start needs a program to run");
    const command = argv.map(shellQuote).join(" ");
    // `script` runs the command with $SHELL -c; pin it so quoting means what shellQuote assumes.
    const child = spawn("script", ["-qefc", command, "/dev/null"], {
      cwd: options.cwd,
      env: { ...options.env, SHELL: "/bin/sh" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    return new PtySession(child, options.waitTimeoutMs ?? 20_000);
  }

  /** The raw transcript so far. */
  get output(): string {
    return this.#output;
  }

  /**
   * Waits until `text` appears after the previous match, then moves past it, so calling this twice
   * with the same prompt waits for the second prompt. Fails if the program ends first.
   */
  async waitForOutput(text: string): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      const check = (): void => {
        const found = this.#output.indexOf(text, this.#searchFrom);
        if (found !== -1) {
          this.#searchFrom = found + text.length;
          finish();
          resolve();
        } else if (this.#done) {
          finish();
          reject(new Error(this.#failure(`the program ended before ${JSON.stringify(text)}`)));
        }
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(this.#failure(`timed out waiting for ${JSON.stringify(text)}`)));
      }, this.#waitTimeoutMs);
      const finish = (): void => {
        clearTimeout(timer);
        this.#listeners.delete(check);
      };
      this.#listeners.add(check);
      check();
    });
  }

  /** Types into the terminal, e.g. `"y\r"` or `KEY.ctrlD`. */
  type(keys: string): void {
    this.#child.stdin.write(keys);
  }

  /** Sends a signal to `script`, which passes the terminal's hangup on to the program. */
  kill(signal: NodeJS.Signals = "SIGKILL"): void {
    this.#child.kill(signal);
  }

  #notify(): void {
    for (const listener of [...this.#listeners]) listener();
  }

  #failure(what: string): string {
    return `PtySession: ${what}; transcript so far:\n${JSON.stringify(this.#output)}`;
  }
}

/**
 * Runs `argv` under a pseudo-terminal and answers each occurrence of `prompt` with the next of
 * `answers`, in order, typing each only once its prompt is on screen.
 */
export async function runInPty(
  argv: readonly string[],
  options: PtyOptions & { readonly prompt: string; readonly answers: readonly string[] },
): Promise<PtyResult> {
  const session = PtySession.start(argv, options);
  try {
    for (const answer of options.answers) {
      await session.waitForOutput(options.prompt);
      session.type(answer);
    }
  } catch (error) {
    session.kill();
    await session.exited.catch(() => undefined);
    throw error;
  }
  return session.exited;
}
