/**
 * How a P04 request is written for a person (the terminal's question, the waiting message, `agent
 * approvals`), so that no text the model or a script could have written passes for the harness's
 * own. Every character but printable ASCII is shown as `\uXXXX` (`\u{XXXXX}` beyond the BMP):
 * controls and ANSI escapes, direction overrides, combining marks, look-alike quotes (`ʺ`) and
 * every odd blank. A run of 32 or more spaces becomes a count, `⟨N spaces⟩`. The script's rows are
 * shown inside a block whose every row starts with `│`, a character no escaped text can hold, so a
 * `Risk:` or `[Permission]` row written by the script is read as script text.
 */
import { collapseHiddenRuns } from "../render/hidden-characters.js";

/** The request fields shown; what a stored request or a waiting run's journal record holds. */
export interface ShownRequest {
  readonly summary: string;
  readonly scriptRows?: readonly string[] | undefined;
  readonly risks: readonly string[];
}

/**
 * The most characters of a request (as shown, escaped) that a terminal shows. A request is shown
 * whole or not at all: cutting its middle would hide what would run.
 */
export const MAX_SHOWN_REQUEST_CHARS = 4000;

/** The harness's own separator in a summary, kept as written (each part is escaped apart). */
const SEPARATOR = " · ";
export const SCRIPT_BLOCK_START =
  "┌─ what it runs or writes, as written (any character but printable ASCII shown as \\uXXXX):";
export const SCRIPT_BLOCK_ROW = "│ ";
export const SCRIPT_BLOCK_END = "└─ end of the block";

/** Any text of a request on one line, every character but printable ASCII escaped. */
export function escapeRequestText(text: string): string {
  return collapseHiddenRuns(text.replace(/[^\x20-\x7e]/gu, asciiEscape));
}

/** The summary, each part between the harness's ` · ` separators escaped on its own. */
export function escapeRequestSummary(summary: string): string {
  return summary.split(SEPARATOR).map(escapeRequestText).join(SEPARATOR);
}

/**
 * The request's lines, unindented: its summary, then the block of what it runs (marked rows), then
 * its risks. `risk` is the label each risk is shown under.
 */
export function requestLines(
  request: ShownRequest,
  risk: string,
): {
  readonly summary: string;
  readonly script: readonly string[];
  readonly risks: readonly string[];
} {
  const rows = request.scriptRows ?? [];
  return {
    summary: escapeRequestSummary(request.summary),
    script:
      rows.length === 0
        ? []
        : [
            SCRIPT_BLOCK_START,
            ...rows.map((row) => `${SCRIPT_BLOCK_ROW}${escapeRequestText(row)}`),
            SCRIPT_BLOCK_END,
          ],
    risks: request.risks.map((one) => `${risk}${escapeRequestText(one)}`),
  };
}

/** How many characters the request is as shown: what decides whether a terminal shows it. */
export function shownRequestLength(request: ShownRequest): number {
  const { summary, script, risks } = requestLines(request, "");
  return [summary, ...script, ...risks].reduce((sum, line) => sum + Array.from(line).length, 0);
}

function asciiEscape(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  const hex = code.toString(16).toUpperCase();
  return code > 0xffff ? `\\u{${hex}}` : `\\u${hex.padStart(4, "0")}`;
}
