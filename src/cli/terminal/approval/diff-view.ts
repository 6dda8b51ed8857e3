import { structuredPatch } from "diff";
import type { FileChange } from "./file-change-preview.js";
import { collapseHiddenRuns } from "../render/hidden-characters.js";
import { cellsOf, usableCells } from "../render/terminal-cells.js";
import { MODEL_INDENT } from "../render/terminal-layout.js";
import { escapeForTerminal } from "../render/terminal-text.js";

export interface DiffViewOptions {
  readonly color: boolean;
  /** Rows the diff may take at most; a longer one shows its head and tail with counts. */
  readonly maxRows: number;
  /** The terminal's width; each row is cut to fit it, so one row is one screen row. */
  readonly columns: number | undefined;
}

const CONTEXT_LINES = 3;
const MIN_ROWS = 6;
const TAB_WIDTH = 4;

/**
 * A unified diff of the change as terminal rows: hunk headers, then ` `, `-` and `+` lines, every
 * line's tabs shown as indentation and the rest of its text escaped (and runs of hidden characters counted) like the rest of the prompt, and
 * indented, since it is model text. A new file is all `+` lines.
 */
export function renderFileDiff(change: FileChange, options: DiffViewOptions): string[] {
  const patch = structuredPatch("a", "b", change.before ?? "", change.after, undefined, undefined, {
    context: CONTEXT_LINES,
  });
  const lines: { kind: " " | "-" | "+" | "@"; text: string }[] = [];
  for (const hunk of patch.hunks) {
    lines.push({
      kind: "@",
      text: `@@ -${rangeStart(hunk.oldStart, hunk.oldLines)},${hunk.oldLines} +${rangeStart(hunk.newStart, hunk.newLines)},${hunk.newLines} @@`,
    });
    for (const line of hunk.lines) {
      const kind = line[0];
      // "\ No newline at end of file" is the format's own note.
      if (kind === "\\") continue;
      if (kind === " " || kind === "-" || kind === "+") lines.push({ kind, text: line.slice(1) });
    }
  }
  if (lines.length === 0) return [row(" ", "(no change)", options)];
  const budget = Math.max(options.maxRows, MIN_ROWS);
  if (lines.length <= budget) return lines.map((line) => render(line, options));
  const headCount = Math.ceil((budget - 1) * 0.6);
  const tailCount = budget - 1 - headCount;
  const head = lines.slice(0, headCount);
  const tail = lines.slice(lines.length - tailCount);
  const hidden = lines.slice(headCount, lines.length - tailCount);
  const removed = hidden.filter((line) => line.kind === "-").length;
  const added = hidden.filter((line) => line.kind === "+").length;
  const summary = `… ${hidden.length} more diff lines not shown (${removed} removed, ${added} added) …`;
  return [
    ...head.map((line) => render(line, options)),
    row(" ", summary, { ...options, color: false }),
    ...tail.map((line) => render(line, options)),
  ];
}

function render(line: { kind: string; text: string }, options: DiffViewOptions): string {
  if (line.kind === "@") return paint("36", `${MODEL_INDENT}${line.text}`, options.color);
  const shown = row(
    line.kind,
    escapeForTerminal(expandTabs(collapseHiddenRuns(line.text))),
    options,
  );
  if (line.kind === "-") return paint("31", shown, options.color);
  if (line.kind === "+") return paint("32", shown, options.color);
  return shown;
}

/**
 * Tab-indented code read as the editor shows it: each tab up to the next stop of TAB_WIDTH
 * columns (counted from the line's own start, after the mark), as spaces, so a row still has a
 * known width. Every other control character stays for `escapeForTerminal` to show.
 */
function expandTabs(text: string): string {
  if (!text.includes("\t")) return text;
  let expanded = "";
  let column = 0;
  for (const char of text) {
    if (char === "\t") {
      const spaces = TAB_WIDTH - (column % TAB_WIDTH);
      expanded += " ".repeat(spaces);
      column += spaces;
    } else {
      expanded += char;
      column += cellsOf(char);
    }
  }
  return expanded;
}

/**
 * One screen row: the indent, the mark, and the text cut to the width. A cut line keeps its start
 * and its last third around `…`: what a line ends with (after padding of visible characters, say)
 * stays in view, as a command's end does in the prompt.
 */
function row(mark: string, text: string, options: DiffViewOptions): string {
  const prefix = `${MODEL_INDENT}${mark}`;
  const width = usableCells(options.columns);
  if (width === Number.POSITIVE_INFINITY) return `${prefix}${text}`;
  const usable = width - prefix.length;
  const chars = Array.from(text);
  const cells = chars.map(cellsOf);
  if (cells.reduce((sum, cell) => sum + cell, 0) <= usable) return `${prefix}${text}`;
  // One cell for the `…`; the rest shared two to one between the start and the end.
  const room = Math.max(usable - 1, 0);
  const tailRoom = Math.floor(room / 3);
  const tail = fitFrom(chars.toReversed(), cells.toReversed(), tailRoom).reverse();
  const head = fitFrom(chars, cells, room - cellCount(tail));
  return `${prefix}${head.join("")}…${tail.join("")}`;
}

/** The leading characters that fit in `room` cells; a wide one that would overflow is left out. */
function fitFrom(chars: readonly string[], cells: readonly number[], room: number): string[] {
  const kept: string[] = [];
  let used = 0;
  for (const [index, char] of chars.entries()) {
    used += cells[index] ?? 2;
    if (used > room) break;
    kept.push(char);
  }
  return kept;
}

function cellCount(chars: readonly string[]): number {
  return chars.reduce((sum, char) => sum + cellsOf(char), 0);
}

/** An empty range is written as starting at the line before it (`-0,0` for a new file). */
function rangeStart(start: number, count: number): number {
  return count === 0 ? start - 1 : start;
}

function paint(code: string, text: string, color: boolean): string {
  return color ? `\u001b[${code}m${text}\u001b[0m` : text;
}
