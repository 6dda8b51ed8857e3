/**
 * On a terminal, only the harness writes at column 0: `[Permission] …`, `→ …`, `✓ …`, the prompt's
 * labels. Text that comes from the model (the final answer, tool output, arguments) is indented,
 * and broken into rows here rather than by the terminal, so that not even a wrapped row of it can
 * begin at column 0 and pass for an audit line.
 */

/** Model text on a terminal starts this far in. */
export const MODEL_INDENT = "  ";

/** Below this the terminal is too narrow to lay anything out: rows are then at most this wide. */
const MIN_ROW_CELLS = 20;
/** Where a tab moves the cursor at most. */
const TAB_CELLS = 8;

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
  const columns = layout.columns ?? 0;
  if (columns <= 0) return `${layout.first}${line}`;
  // One cell spare: a row that fills the last column leaves some terminals about to wrap.
  const usable = Math.max(columns - 1, MIN_ROW_CELLS);
  const rows: string[] = [];
  let prefix = layout.first;
  let row = "";
  let used = cellsOf(prefix);
  for (const char of line) {
    const cells = cellsOf(char);
    if (used + cells > usable && row !== "") {
      rows.push(`${prefix}${row}`);
      prefix = layout.rest;
      row = "";
      used = cellsOf(prefix);
    }
    row += char;
    used += cells;
  }
  rows.push(`${prefix}${row}`);
  return rows.join("\n");
}

/** Every line of a model text indented, and broken into rows that keep the indent. */
export function indentModelText(text: string, columns: number | undefined): string {
  return text
    .split("\n")
    .map((line) => layOutLine(line, { columns, first: MODEL_INDENT, rest: MODEL_INDENT }))
    .join("\n");
}

function cellsOf(text: string): number {
  let cells = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code === 0x09) cells += TAB_CELLS;
    else cells += code >= 0x20 && code < 0x7f ? 1 : 2;
  }
  return cells;
}
