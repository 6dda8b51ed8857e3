/**
 * On a terminal, only the harness writes at column 0: `[Permission] …`, `→ …`, `✓ …`, the prompt's
 * labels. Text that comes from the model (the final answer, tool output, arguments) is indented,
 * and broken into rows here rather than by the terminal, so that not even a wrapped row of it can
 * begin at column 0 and pass for an audit line.
 */
import { breakIntoRows } from "./row-breaks.js";
import { cellsOfText, usableCells } from "./terminal-cells.js";

/** Model text on a terminal starts this far in. */
export const MODEL_INDENT = "  ";

export interface RowLayout {
  /** The terminal's width; `undefined` or 0 (unknown, as under some pseudo-terminals): no breaking. */
  readonly columns: number | undefined;
  /** What starts the first row (the harness's own label text is part of `line` instead). */
  readonly first: string;
  /** What starts every row after the first. */
  readonly rest: string;
}

/**
 * One logical line as terminal rows. Widths are over-estimated (every character outside printable
 * ASCII counts two cells, a tab eight), so the terminal never wraps a row on its own; a row may end
 * a little early instead.
 */
export function layOutLine(line: string, layout: RowLayout): string {
  const usable = usableCells(layout.columns);
  if (usable === Number.POSITIVE_INFINITY) return `${layout.first}${line}`;
  const row = { used: cellsOfText(layout.first), empty: true };
  return breakIntoRows(line, row, usable, cellsOfText(layout.rest))
    .map((piece, index) => `${index === 0 ? layout.first : layout.rest}${piece}`)
    .join("\n");
}

/** A piece of a line; a `whole` one (a note of what is left out) is kept on one row if it fits. */
export interface LinePiece {
  readonly text: string;
  readonly whole?: boolean;
}

/**
 * As `layOutLine` for the pieces joined, but a `whole` piece that would be broken starts a new row
 * instead, where one row holds it: `(31 more characters not shown)` is read at one glance.
 */
export function layOutPieces(pieces: readonly LinePiece[], layout: RowLayout): string {
  const usable = usableCells(layout.columns);
  if (usable === Number.POSITIVE_INFINITY) {
    return `${layout.first}${pieces.map((piece) => piece.text).join("")}`;
  }
  const restCells = cellsOfText(layout.rest);
  const row = { used: cellsOfText(layout.first), empty: true };
  const rows: string[] = [];
  let open = "";
  for (const piece of pieces) {
    const cells = cellsOfText(piece.text);
    const wouldBreak = !row.empty && row.used + cells > usable;
    if (piece.whole === true && wouldBreak && restCells + cells <= usable) {
      rows.push(open);
      open = "";
      row.used = restCells;
      row.empty = true;
    }
    const [first = "", ...more] = breakIntoRows(piece.text, row, usable, restCells);
    if (more.length === 0) {
      open += first;
      continue;
    }
    rows.push(open + first, ...more.slice(0, -1));
    open = more.at(-1) ?? "";
  }
  rows.push(open);
  return rows.map((one, index) => `${index === 0 ? layout.first : layout.rest}${one}`).join("\n");
}

/** Every line of a model text indented, and broken into rows that keep the indent. */
export function indentModelText(text: string, columns: number | undefined): string {
  return text
    .split("\n")
    .map((line) => layOutLine(line, { columns, first: MODEL_INDENT, rest: MODEL_INDENT }))
    .join("\n");
}
