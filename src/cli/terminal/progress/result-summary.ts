/**
 * The ✓ line's words for a result: `13 bytes written`, a command's last line (or its test
 * runner's summary), else the first line; then how many more lines there were. A command's long
 * output reaches the model shortened (shell-tool.ts's truncation notice): the count is then the
 * whole output's, and the line says where the whole output was saved.
 */
import { collapseHiddenRuns } from "../render/hidden-characters.js";
import { escapeForTerminal, truncateForDisplay } from "../render/terminal-text.js";
import { commandSummary, isCommandTool } from "./command-summary.js";

const SUMMARY_CHARS = 80;

export function summarizeResult(tool: string, content: string): string {
  const written = /^Wrote (\d+) UTF-8 bytes/.exec(content);
  if (tool === "write_file" && written !== null) {
    const bytes = written[1] ?? "0";
    return `${bytes} ${bytes === "1" ? "byte" : "bytes"} written`;
  }
  if (!isCommandTool(tool)) return `${firstLine(content)}${moreLines(extraLines(content))}`;
  const shortened = shortenedOutput(content);
  // A command says how it went at the end (a test runner in its summary), not at the start.
  const line = commandSummary(shortened?.kept ?? content);
  if (shortened === undefined) return `${line}${moreLines(extraLines(content))}`;
  if (shortened.omittedLines === undefined) return `${line} (output shortened)`;
  const more = extraLines(shortened.kept) + shortened.omittedLines;
  const where =
    shortened.savedTo === undefined
      ? undefined
      : escapeForTerminal(collapseHiddenRuns(shortened.savedTo));
  const saved =
    where === undefined
      ? ""
      : shortened.savedCut === true
        ? `; output in ${where}, its middle cut there too`
        : `; full output in ${where}`;
  return `${line} (+${more} ${more === 1 ? "line" : "lines"}, shortened${saved})`;
}

/** The first line, cut to the summary's width and escaped. */
export function firstLine(text: string, maxChars = SUMMARY_CHARS): string {
  return escapeForTerminal(
    truncateForDisplay(collapseHiddenRuns(text.split("\n")[0] ?? ""), maxChars),
  );
}

/**
 * A failed call's first line: its reason ends with what to do about it (`…; add surrounding
 * lines to make it unique`), so it is shown to the end, broken into rows, up to a bound that
 * keeps a model's long text from filling the screen.
 */
export function errorLine(text: string): string {
  return firstLine(text, ERROR_LINE_CHARS);
}

const ERROR_LINE_CHARS = 400;

/** Lines after the first; a final newline ends the last line, it does not start another. */
function extraLines(text: string): number {
  return text.replace(/\n$/, "").split("\n").length - 1;
}

function moreLines(more: number): string {
  return more === 0 ? "" : ` (+${more} ${more === 1 ? "line" : "lines"})`;
}

/**
 * `[output truncated: 1200 bytes (150 lines) left out; the whole output (51234 bytes) is in
 * .agent/outputs/call_1.log]` (or `… could not be saved]`, or the file cut over its cap), or a
 * bare `[output truncated]`, on a line of its own between the head and the tail.
 */
const NOTICE =
  /^\[output truncated: \d+ bytes \((\d+) lines?\) left out; (?:the whole output could not be saved|the (?:whole )?output \(\d+ bytes\) is in (.+?)( without its middle \d+ bytes, over the harness's cap on a saved output)?)\]$/mu;
const BARE_NOTICE = /^\[output truncated\]$/mu;

interface ShortenedOutput {
  /** The output the model got, without the notice. */
  readonly kept: string;
  /** Lines left out between the head and the tail, when the notice says. */
  readonly omittedLines?: number;
  readonly savedTo?: string;
  /** The saved file lacks its middle too (over the cap on a saved output). */
  readonly savedCut?: true;
}

function shortenedOutput(content: string): ShortenedOutput | undefined {
  const notice = NOTICE.exec(content) ?? BARE_NOTICE.exec(content);
  if (notice === null) return undefined;
  const kept = `${content.slice(0, notice.index)}${content.slice(notice.index + notice[0].length + 1)}`;
  const omitted = notice[1] === undefined ? undefined : Number(notice[1]);
  return {
    kept,
    ...(omitted === undefined ? {} : { omittedLines: omitted }),
    ...(notice[2] === undefined ? {} : { savedTo: notice[2] }),
    ...(notice[3] === undefined ? {} : { savedCut: true }),
  };
}
