import type { AgentObserver } from "../../../core/runner/agent-runner.js";
import type { ToolCall } from "../../../core/ports/messages.js";
import type { ModelReply, TokenUsage } from "../../../core/ports/model.js";
import {
  describeOutcome,
  everyCallDenied,
  summarizeOutcomes,
  type ToolOutcome,
} from "../../../core/tools/tool-outcome.js";
import type { ToolResult } from "../../../core/tools/tool-result.js";
import { collapseHiddenRuns } from "../render/hidden-characters.js";
import type { CompactionEvent } from "../../../core/context/context-keeper.js";
import { compactionLine, contextUsed } from "./context-status.js";
import { CoalescedText } from "./coalesced-text.js";
import {
  commandOutput,
  commandRan,
  failureDetails,
  isCommandTool,
  sandboxNoteRows,
} from "./command-summary.js";
import { withoutNoteLines } from "../../../core/tools/command-notes.js";
import { errorLine, summarizeResult } from "./result-summary.js";
import type { StreamedLayout } from "./streamed-layout.js";
import { StreamedDraft } from "./streamed-draft.js";
import type { ModelRetryNotice } from "../../../bootstrap.js";
import { retryNoticeLine } from "./retry-notice.js";
import { mentionLine } from "./mention-lines.js";
import type { MentionReport } from "../../../core/runner/mention-attachments.js";
import { MODEL_INDENT, layOutLine } from "../render/terminal-layout.js";
import { layOutHarnessLine, layOutModelWords, plain, type Run } from "../render/styled-rows.js";
import {
  escapeControlsKeepingLines,
  escapeForPrompt,
  escapeForTerminal,
  truncateForDisplay,
} from "../render/terminal-text.js";

export type Verbosity = "quiet" | "normal" | "verbose";

export interface ProgressOutput extends NodeJS.WritableStream {
  readonly isTTY?: boolean;
  /** A terminal's width (tty.WriteStream has it); lines holding model text are broken to fit it. */
  readonly columns?: number;
  /** A terminal's height: streamed text is erased again only while it is all still on the screen. */
  readonly rows?: number;
}

export interface ProgressReporterOptions {
  readonly output: ProgressOutput;
  readonly verbosity: Verbosity;
  readonly color: boolean;
  readonly now?: () => number;
}

/** SGR parameters of the harness's marks and of what it dims. */
const CYAN = ["36"];
const RED = ["31"];
const GREEN = ["32"];
const YELLOW = ["33"];
const DIM = ["2"];

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const CLEAR_LINE = "\r\u001b[2K";
const SUMMARY_CHARS = 80;
const UNKNOWN_ROWS = 24;

/** What the person sees on stderr while the agent works; stdout stays for the final answer. */
export class ProgressReporter implements AgentObserver {
  readonly #options: ProgressReporterOptions;
  #spinner: ReturnType<typeof setInterval> | undefined;
  readonly #tokensPerTurn: number[] = [];
  /** The model's text of the current reply, as shown while it streams in (terminal only). */
  #streamed: StreamedDraft | undefined;
  #lastAnswer: StreamedLayout | undefined;
  readonly #outcomes: ToolOutcome[] = [];
  /** "context N% used", once the runner measured the history (terminal only). */
  #context = "";
  /**
   * The model's text as it arrived, waiting to be laid out and written once per turn of the event
   * loop (`coalesced-text.ts`); flushed before anything else is written.
   */
  readonly #streamedOutput: CoalescedText;

  constructor(options: ProgressReporterOptions) {
    this.#options = options;
    this.#streamedOutput = new CoalescedText((text) => {
      this.#showStreamed(text);
    });
  }

  onModelRequest(turn: number, maxTurns: number): void {
    this.#stopSpinner();
    this.#lastAnswer = undefined;
    if (this.#options.verbosity === "quiet" || this.#options.output.isTTY !== true) return;
    const now = this.#options.now ?? Date.now;
    const started = now();
    let frame = 0;
    const draw = (): void => {
      const seconds = ((now() - started) / 1000).toFixed(1);
      const glyph = SPINNER[frame % SPINNER.length] ?? "";
      frame += 1;
      this.#write(
        `${CLEAR_LINE}${this.#dim(`${glyph} waiting for the model · ${seconds}s · turn ${turn}/${maxTurns}${this.#context}`)}`,
      );
    };
    draw();
    this.#spinner = setInterval(draw, 100);
    this.#spinner.unref();
  }

  /**
   * A piece of the model's text as it arrives: on a terminal it is shown at once, dimmed and
   * indented. If the reply turns out to be the final answer, that text is erased again when the
   * reply is complete, for the answer to take its place; text beside tool calls stays.
   */
  onTextDelta(text: string): void {
    if (this.#options.verbosity === "quiet" || this.#options.output.isTTY !== true) return;
    this.#stopSpinner();
    this.#streamedOutput.add(text);
  }

  /**
   * The pieces of one turn laid out together: one scan of the text, one dimmed write. A long reply
   * comes in thousands of pieces of a few characters; escaping, breaking and dimming each on its
   * own cost more than the text itself (StreamedText gives the same rows however it is cut).
   */
  #showStreamed(text: string): void {
    this.#streamed ??= new StreamedDraft(this.#columns(), this.#screenRows(), (rows) =>
      this.#dim(rows),
    );
    const shown = this.#streamed.add(text);
    if (shown !== "") this.#options.output.write(shown);
  }

  /**
   * The last reply without tool calls, as it streamed and the rows it was shown in (terminal
   * only): the final answer's view reuses them when they are the same (streamed-layout.ts).
   */
  get lastAnswer(): StreamedLayout | undefined {
    return this.#lastAnswer;
  }

  onModelReply(reply: ModelReply): void {
    this.#stopSpinner();
    this.#endStreamedText(reply);
    if (reply.usage === undefined) return;
    this.#tokensPerTurn.push(reply.usage.totalTokens);
    if (this.#options.verbosity === "verbose") {
      this.#line(this.#dim(`  tokens this turn: ${formatUsage(reply.usage)}`));
    }
  }

  /** A model request failed and is sent again after a wait: said on its own line. */
  onModelRetry(notice: ModelRetryNotice): void {
    if (this.#options.verbosity === "quiet") return;
    // The spinner goes on below; its row is cleared first so the line starts clean.
    if (this.#spinner !== undefined) this.#options.output.write(CLEAR_LINE);
    this.#line(retryNoticeLine(notice));
  }

  onContextUsage(tokens: number, window: number): void {
    this.#context = ` · ${contextUsed(tokens, window)}`;
  }

  onCompaction(event: CompactionEvent): void {
    const line = compactionLine(event);
    if (line === undefined || this.#options.verbosity === "quiet") return;
    this.#stopSpinner();
    // Broken between words, as every harness line is, rather than by the terminal mid-word.
    this.#rows([{ text: line, style: event.kind === "compacted" ? ["2"] : [] }]);
  }

  /** Shown whatever the verbosity: the person should know what their message carries. */
  onMention(report: MentionReport): void {
    this.#stopSpinner();
    const line = mentionLine(report);
    this.#rows([report.kind === "attached" ? { text: line, style: DIM } : plain(line)]);
  }

  /**
   * The patterns a call's line and its result's line are escaped with, built and compiled (their
   * Unicode property classes expand through ICU: a few ms the first call's line would otherwise
   * take). The result's line goes through them twice: V8 compiles a pattern to machine code at
   * its second use, which would otherwise be the first call's.
   */
  prepare(): void {
    escapeForPrompt("\u200b\u200b");
    summarizeResult("read_file", "\u200b\u200b\n");
    summarizeResult("read_file", "\u200b\u200b\n");
  }

  onToolCallStart(call: ToolCall): void {
    this.#stopSpinner();
    if (this.#options.verbosity === "quiet") return;
    const summary = summarizeArguments(call);
    const name = escapeForPrompt(call.name);
    this.#rows([
      { text: "→", style: CYAN },
      plain(` ${summary === "" ? name : `${name} ${summary}`}`),
    ]);
  }

  /** `notes`: the sandbox's, from the call's facts; the result's text holds them for the model. */
  onToolCallEnd(
    call: ToolCall,
    result: ToolResult,
    durationMs: number,
    outcome?: ToolOutcome,
    notes: readonly string[] = [],
  ): void {
    if (outcome !== undefined) this.#outcomes.push(outcome);
    if (this.#options.verbosity === "quiet") return;
    // Kept on one row: `(3.5` at the end of one and `s)` at the start of the next reads badly.
    const took: Run = { text: `(${formatDuration(durationMs)})`, style: DIM, whole: true };
    const command = isCommandTool(call.name);
    // What the command printed, without the lines the tool added for the model from `notes`.
    const content = command ? withoutNoteLines(result.content, notes) : result.content;
    if (result.isError) {
      const text = result.content.replace(/^Error \[[^\]]*\]: /, "");
      const summary = `${result.errorCode ?? "error"}: ${errorLine(text)}`;
      this.#rows([{ text: "✗", style: RED }, plain(` ${summary} `), took]);
      if (this.#options.verbosity === "normal" && command) {
        this.#commandDetails(result.errorCode, content);
      }
    } else {
      const summary = summarizeResult(call.name, content);
      this.#rows([{ text: "✓", style: GREEN }, plain(` ${summary} `), took]);
    }
    if (this.#options.verbosity === "verbose") {
      // A final newline ends the last line; it does not start a blank one.
      for (const line of content.replace(/\n$/u, "").split("\n")) {
        this.#line(
          layOutLine(escapeForTerminal(collapseHiddenRuns(line)), {
            columns: this.#columns(),
            first: MODEL_INDENT,
            rest: MODEL_INDENT,
          }),
        );
      }
    }
    // A command that succeeded may still have made what the host runs later, one that failed may
    // have hit a limit: the sandbox's notes are for the person, who would not see them otherwise.
    // Each is one row at the margin, where no row of a command's output (always indented) starts.
    if (command) {
      for (const note of sandboxNoteRows(notes)) {
        this.#rows([{ text: "!", style: YELLOW }, plain(` ${note}`)]);
      }
    }
    if (this.#options.verbosity === "verbose" && outcome !== undefined) {
      this.#line(this.#dim(`  outcome: ${escapeForPrompt(describeOutcome(outcome))}`));
    }
  }

  /**
   * Under a failed command, without --verbose: a test runner's summary and the last lines of its
   * stderr, or the last lines it printed, so the reason is on the screen.
   */
  #commandDetails(errorCode: string | undefined, content: string): void {
    if (!commandRan(errorCode)) return;
    const details = failureDetails(commandOutput(content, true));
    for (const detail of details) this.#rows([{ text: `${MODEL_INDENT}${detail}`, style: DIM }]);
  }

  /** The closing line: turns, and token usage per turn and in total when the provider reported it. */
  finish(turns: number, usage: TokenUsage | undefined): void {
    this.#stopSpinner();
    // Each run (a conversation's turn) is summed up on its own; the next starts from nothing.
    const tokensPerTurn = this.#tokensPerTurn.splice(0);
    const outcomes = this.#outcomes.splice(0);
    if (this.#options.verbosity === "quiet") return;
    const perTurn = perTurnTokens(tokensPerTurn, this.#options.verbosity === "verbose");
    const tokens = usage === undefined ? "" : ` · tokens ${formatUsage(usage)}${perTurn}`;
    const calls = outcomes.length === 0 ? "" : ` · ${summarizeOutcomes(outcomes)}`;
    const context = this.#options.output.isTTY === true ? this.#context : "";
    // Said outright: an answer after nothing was allowed to run is rarely what was asked for.
    const allDenied = everyCallDenied(outcomes) ? " · every call was denied" : "";
    // A resume of a run that had answered sends nothing: the answer above is the one from before.
    const done =
      turns === 0 && outcomes.length === 0
        ? "no new turn: the answer above is the run's last"
        : `done in ${turns} ${turns === 1 ? "turn" : "turns"}`;
    // Broken between words on a terminal like the other harness lines, not mid-word by it.
    this.#rows([{ text: `${done}${calls}${allDenied}${tokens}${context}`, style: DIM }]);
  }

  dispose(): void {
    this.#streamedOutput.flush();
    this.#stopSpinner();
    this.#tokensPerTurn.length = 0;
    this.#outcomes.length = 0;
    const streamed = this.#streamed;
    this.#streamed = undefined;
    if (streamed !== undefined) this.#write(streamed.end(true));
  }

  #endStreamedText(reply: ModelReply): void {
    this.#streamedOutput.flush();
    const streamed = this.#streamed;
    this.#streamed = undefined;
    const { verbosity } = this.#options;
    const text = reply.message.content ?? "";
    const withTools = reply.message.toolCalls.length > 0;
    if (streamed?.started !== true) {
      // Piped, nothing streamed: the text beside tool calls is shown here, once, not dropped.
      if (withTools && text.trim() !== "" && verbosity !== "quiet") {
        const shown = escapeControlsKeepingLines(collapseHiddenRuns(text));
        this.#line(this.#dim(layOutModelWords(shown, this.#columns())));
      }
      return;
    }
    // The final answer follows on stdout and its draft goes (it never outgrows the screen, so
    // all of it can be erased); text beside tool calls stays.
    this.#write(streamed.end(withTools));
    if (!withTools) this.#lastAnswer = streamed.laidOut();
  }

  /** A pseudo-terminal of unknown size is taken to have the classic 24 rows. */
  #screenRows(): number {
    const { rows } = this.#options.output;
    return rows !== undefined && rows > 0 ? rows : UNKNOWN_ROWS;
  }

  #stopSpinner(): void {
    if (this.#spinner === undefined) return;
    clearInterval(this.#spinner);
    this.#spinner = undefined;
    this.#write(CLEAR_LINE);
  }

  #write(text: string): void {
    this.#streamedOutput.flush();
    this.#options.output.write(text);
  }

  #line(text: string): void {
    this.#write(`${text}\n`);
  }

  /**
   * A harness line that holds model text: its wrapped rows are indented, never at column 0. The
   * plain text is broken into rows first (between words), and each row coloured after: breaking
   * coloured text would cut its escape sequences and count them as cells.
   */
  #rows(runs: readonly Run[]): void {
    this.#line(layOutHarnessLine(runs, { columns: this.#columns(), color: this.#options.color }));
  }

  #columns(): number | undefined {
    return this.#options.output.isTTY === true ? this.#options.output.columns : undefined;
  }

  #paint(code: string, text: string): string {
    return this.#options.color ? `\u001b[${code}m${text}\u001b[0m` : text;
  }

  #dim(text: string): string {
    return this.#paint("2", text);
  }
}

/** Colour only for a person at a terminal, and never when NO_COLOR is set (no-color.org). */
export function useColor(
  output: ProgressOutput,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  return output.isTTY === true && (env.NO_COLOR === undefined || env.NO_COLOR === "");
}

function summarizeArguments(call: ToolCall): string {
  let args: unknown;
  try {
    args = JSON.parse(call.arguments);
  } catch {
    return escapeForTerminal(truncateForDisplay(collapseHiddenRuns(call.arguments), SUMMARY_CHARS));
  }
  if (typeof args !== "object" || args === null) return "";
  const record = args as Record<string, unknown>;
  const main = isArgv(record.command, record.args)
    ? // run_command: the argv as the approval shows it; a flat list of strings, safe to encode.
      JSON.stringify([record.command, ...record.args])
    : (record.command ?? searched(record.pattern, record.path) ?? record.path);
  // The model's own text, not a re-encoding of it: re-encoding deeply nested hostile JSON could
  // overflow the stack.
  const text = typeof main === "string" ? main : call.arguments;
  return escapeForTerminal(truncateForDisplay(collapseHiddenRuns(text), SUMMARY_CHARS));
}

/**
 * A search (grep, glob) by what it looks for, then where when the call says: `def total in src`.
 * The path alone would hide the pattern, and `grep .` says nothing. A pattern that starts or ends
 * with a blank is quoted (`"def "`): a blank at a line's end cannot be seen.
 */
function searched(pattern: unknown, path: unknown): string | undefined {
  if (typeof pattern !== "string" || pattern === "") return undefined;
  const shown = pattern.trim() === pattern ? pattern : JSON.stringify(pattern);
  return typeof path === "string" && path !== "" ? `${shown} in ${path}` : shown;
}

function isArgv(command: unknown, args: unknown): args is string[] {
  return (
    typeof command === "string" &&
    Array.isArray(args) &&
    args.every((arg): arg is string => typeof arg === "string")
  );
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** Turns up to this many list each one's tokens; more say min, median and max (all with --verbose). */
const LISTED_TURNS = 5;

/** ` · per turn 12, 18`, or for a long run ` · per turn min 9 · median 14 · max 31`; "" for one turn. */
function perTurnTokens(tokens: readonly number[], verbose: boolean): string {
  if (tokens.length < 2) return "";
  if (verbose || tokens.length <= LISTED_TURNS) return ` · per turn ${tokens.join(", ")}`;
  const sorted = tokens.toSorted((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1
      ? (sorted[middle] ?? 0)
      : Math.round(((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2);
  return ` · per turn min ${String(sorted[0] ?? 0)} · median ${String(median)} · max ${String(sorted.at(-1) ?? 0)}`;
}

function formatUsage(usage: TokenUsage): string {
  return `${usage.totalTokens} (prompt ${usage.promptTokens}, completion ${usage.completionTokens})`;
}
