import type {
  CommandOptions,
  CommandResult,
  CommandRunner,
} from "../../../core/ports/command-runner.js";
import { collapseHiddenRuns } from "../render/hidden-characters.js";
import type { ProgressOutput, Verbosity } from "./progress-reporter.js";
import { cellsOf, usableCells } from "../render/terminal-cells.js";
import { MODEL_INDENT } from "../render/terminal-layout.js";
import { escapeForTerminal } from "../render/terminal-text.js";

export interface CommandStatusOptions {
  readonly output: ProgressOutput;
  readonly verbosity: Verbosity;
  readonly color: boolean;
  readonly now?: () => number;
  /** Piped, a plain line this often. */
  readonly pipedEveryMs?: number;
}

const CLEAR_LINE = "\r\u001b[2K";
const REDRAW_MS = 200;
const PIPED_EVERY_MS = 10_000;
const TAIL_CHARS = 4096;

/**
 * While a command runs: how long it has been running out of how long it may (`--command-timeout`),
 * and the last line it printed. On a terminal
 * one row, redrawn in place (indented: it holds the command's output); piped, a plain line every
 * ten seconds, so a long command is never silent.
 */
export class CommandStatus {
  readonly #options: CommandStatusOptions;

  constructor(options: CommandStatusOptions) {
    this.#options = options;
  }

  /** The runner, with every run shown while it lasts. */
  around(runner: CommandRunner): CommandRunner {
    return {
      shellName: runner.shellName,
      run: async (
        command: string,
        cwd: string,
        options: CommandOptions,
      ): Promise<CommandResult> => {
        const watch = this.#start(options.timeoutMs);
        try {
          return await runner.run(command, cwd, { ...options, onOutput: watch.onOutput });
        } finally {
          watch.stop();
        }
      },
    };
  }

  #start(timeoutMs: number): { onOutput: (text: string) => void; stop: () => void } {
    const { output, verbosity } = this.#options;
    let tail = "";
    const onOutput = (text: string): void => {
      tail = keptTail(tail, text);
    };
    if (verbosity === "quiet") return { onOutput, stop: () => undefined };
    const now = this.#options.now ?? Date.now;
    const started = now();
    const tty = output.isTTY === true;
    const limit = `${String(timeoutMs / 1000)} s`;
    const draw = (): void => {
      const seconds = ((now() - started) / 1000).toFixed(tty ? 1 : 0);
      const line = lastLine(tail);
      const text = `${MODEL_INDENT}… running ${seconds}s of ${limit}${line === "" ? "" : ` · ${line}`}`;
      if (tty) output.write(`${CLEAR_LINE}${this.#dim(fit(text, output.columns))}`);
      else output.write(`${text}\n`);
    };
    if (tty) draw();
    const timer = setInterval(
      draw,
      tty ? REDRAW_MS : (this.#options.pipedEveryMs ?? PIPED_EVERY_MS),
    );
    timer.unref();
    return {
      onOutput,
      stop: () => {
        clearInterval(timer);
        if (tty) output.write(CLEAR_LINE);
      },
    };
  }

  #dim(text: string): string {
    return this.#options.color ? `\u001b[2m${text}\u001b[0m` : text;
  }
}

/**
 * The last `TAIL_CHARS` of the output so far, never holding on to the piece it came from: a slice
 * keeps its whole source string alive, and with one kept per read a gigabyte of output left tens
 * of MiB of strings for the collector. Slicing a concatenation copies just the kept characters
 * into a string of their own (a round trip through a Buffer would cost one off-heap allocation per
 * read instead).
 */
function keptTail(tail: string, text: string): string {
  if (text.length < TAIL_CHARS) return (tail + text).slice(-TAIL_CHARS);
  return ("\n" + text.slice(-TAIL_CHARS)).slice(1);
}

/** The last line with anything on it, escaped like all command output shown. */
function lastLine(tail: string): string {
  const lines = tail.split(/\r\n|\r|\n/u).filter((line) => line.trim() !== "");
  return escapeForTerminal(collapseHiddenRuns(lines.at(-1) ?? ""));
}

/** Cut to one row of the terminal (wide characters counted as two cells), so `\r` redraws it all. */
function fit(text: string, columns: number | undefined): string {
  const usable = usableCells(columns);
  if (usable === Number.POSITIVE_INFINITY) return text;
  let used = 0;
  let kept = "";
  for (const char of text) {
    used += cellsOf(char);
    if (used > usable - 1) return `${kept}…`;
    kept += char;
  }
  return kept;
}
