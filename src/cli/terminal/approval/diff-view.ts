import { structuredPatch } from "diff";
import type { FileChange } from "./file-change-preview.js";
import {
  diffLineText,
  withWhitespaceShown,
  type DiffLine,
  type ShownDiffLine,
} from "./diff-whitespace.js";
import { cellsOf, usableCells } from "../render/terminal-cells.js";
import { layOutLine, MODEL_INDENT } from "../render/terminal-layout.js";
import { escapeForTerminal } from "../render/terminal-text.js";

export interface DiffViewOptions {
  readonly color: boolean;
  /** Rows the diff may take at most; a longer one shows its head and tail with counts. */
  readonly maxRows: number;
  /** The terminal's width; each row is cut to fit it, so one row is one screen row. */
  readonly columns: number | undefined;
  /** How long working out the diff may take (default DIFF_TIMEOUT_MS). */
  readonly timeoutMs?: number;
}

/** The diff of one change as the prompt shows it, and the whole of it for `v`. */
export interface DiffView {
  /** Fitted to the screen: rows cut to its width, a long diff's middle left out. */
  readonly rows: string[];
  /** Whether `rows` leave anything of the change out. */
  readonly cut: boolean;
  /** Every line whole, broken into rows with the wrapped ones indented (never at column 0). */
  whole(): string[];
}

const CONTEXT_LINES = 3;
const MIN_ROWS = 6;
/**
 * Rows that leaving lines out costs: the `… N more diff lines not shown …` row and the note under
 * the diff that offers `v`. Hiding no more lines than this saves no row, and only sends the
 * person to `v` for lines that would have fit.
 */
const ELISION_COST_ROWS = 2;
/**
 * Working out a diff costs time that grows with the product of the lengths (10,000 lines
 * replaced took ~13 s): past this the prompt shows no diff, and `v` the content, rather than
 * keep the person waiting with Ctrl-C unheard.
 */
const DIFF_TIMEOUT_MS = 1500;

/**
 * A unified diff of the change as terminal rows: hunk headers, then ` `, `-` and `+` lines, every
 * line's tabs shown as indentation (and blanks that alone tell lines apart as marks:
 * diff-whitespace.ts) and the rest of its text escaped (and runs of hidden characters counted)
 * like the rest of the prompt, and indented, since it is model text. A new file is all `+` lines.
 * Undefined when the diff would take too long to work out.
 */
export function fileDiffView(change: FileChange, options: DiffViewOptions): DiffView | undefined {
  const lines = diffLines(change, options.timeoutMs ?? DIFF_TIMEOUT_MS);
  if (lines === undefined) return undefined;
  const fitted = fit(lines, options);
  return {
    ...fitted,
    whole: () => lines.flatMap((line) => wrapped(line, options)),
  };
}

/** The fitted rows alone (`fileDiffView`), or a note when the diff is too costly to show. */
export function renderFileDiff(change: FileChange, options: DiffViewOptions): string[] {
  return (
    fileDiffView(change, options)?.rows ?? [
      row(" ", "(the diff would take too long to show)", options).text,
    ]
  );
}

function diffLines(change: FileChange, timeoutMs: number): ShownDiffLine[] | undefined {
  const patch = structuredPatch("a", "b", change.before ?? "", change.after, undefined, undefined, {
    context: CONTEXT_LINES,
    timeout: timeoutMs,
  });
  if (patch === undefined) return undefined;
  const lines: DiffLine[] = [];
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
  return withWhitespaceShown(lines);
}

function fit(
  lines: readonly ShownDiffLine[],
  options: DiffViewOptions,
): { rows: string[]; cut: boolean } {
  if (lines.length === 0) return { rows: [row(" ", "(no change)", options).text], cut: false };
  const budget = Math.max(options.maxRows, MIN_ROWS);
  // With one row of the budget for the count, `lines.length - (budget - 1)` lines would be hidden.
  if (lines.length - (budget - 1) <= ELISION_COST_ROWS) {
    const shown = lines.map((line) => render(line, options));
    return { rows: shown.map((one) => one.text), cut: shown.some((one) => one.cut) };
  }
  const headCount = Math.ceil((budget - 1) * 0.6);
  const tailCount = budget - 1 - headCount;
  const head = lines.slice(0, headCount);
  const tail = lines.slice(lines.length - tailCount);
  const hidden = lines.slice(headCount, lines.length - tailCount);
  const removed = hidden.filter((line) => line.kind === "-").length;
  const added = hidden.filter((line) => line.kind === "+").length;
  const summary = `… ${hidden.length} more diff lines not shown (${removed} removed, ${added} added) …`;
  return {
    rows: [
      ...head.map((line) => render(line, options).text),
      row(" ", summary, { ...options, color: false }).text,
      ...tail.map((line) => render(line, options).text),
    ],
    cut: true,
  };
}

/** One diff line whole: broken into rows between cells, the wrapped ones indented past the mark. */
function wrapped(line: ShownDiffLine, options: DiffViewOptions): string[] {
  const code =
    line.kind === "@" ? "36" : line.kind === "-" ? "31" : line.kind === "+" ? "32" : undefined;
  const text =
    line.kind === "@"
      ? line.text
      : `${line.kind}${escapeForTerminal(diffLineText(line.text, line.whitespace))}`;
  const rows = layOutLine(text, {
    columns: options.columns,
    first: MODEL_INDENT,
    rest: `${MODEL_INDENT} `,
  }).split("\n");
  return code === undefined ? rows : rows.map((one) => paint(code, one, options.color));
}

function render(line: ShownDiffLine, options: DiffViewOptions): { text: string; cut: boolean } {
  if (line.kind === "@") {
    return { text: paint("36", `${MODEL_INDENT}${line.text}`, options.color), cut: false };
  }
  const shown = row(
    line.kind,
    escapeForTerminal(diffLineText(line.text, line.whitespace)),
    options,
  );
  if (line.kind === "-") return { ...shown, text: paint("31", shown.text, options.color) };
  if (line.kind === "+") return { ...shown, text: paint("32", shown.text, options.color) };
  return shown;
}

/**
 * One screen row: the indent, the mark, and the text cut to the width. A cut line keeps its start
 * and its last third around `…`: what a line ends with (after padding of visible characters, say)
 * stays in view, as a command's end does in the prompt.
 */
function row(mark: string, text: string, options: DiffViewOptions): { text: string; cut: boolean } {
  const prefix = `${MODEL_INDENT}${mark}`;
  const width = usableCells(options.columns);
  if (width === Number.POSITIVE_INFINITY) return { text: `${prefix}${text}`, cut: false };
  const usable = width - prefix.length;
  const chars = Array.from(text);
  const cells = chars.map(cellsOf);
  if (cells.reduce((sum, cell) => sum + cell, 0) <= usable) {
    return { text: `${prefix}${text}`, cut: false };
  }
  // One cell for the `…`; the rest shared two to one between the start and the end.
  const room = Math.max(usable - 1, 0);
  const tailRoom = Math.floor(room / 3);
  const tail = fitFrom(chars.toReversed(), cells.toReversed(), tailRoom).reverse();
  const head = fitFrom(chars, cells, room - cellCount(tail));
  return { text: `${prefix}${head.join("")}…${tail.join("")}`, cut: true };
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
