import { MODEL_INDENT } from "./terminal-layout.js";
import { cellsOf, cellsOfText, usableCells } from "./terminal-cells.js";

/**
 * A piece of text with its look. `text` is already safe for the terminal (escaped); `style` holds
 * SGR parameters (`"1"` bold, `"36"` cyan, …), written only when colour is on.
 */
export interface Run {
  readonly text: string;
  readonly style: readonly string[];
}

/**
 * One logical line: what starts its first row (`first`, a list bullet say), what starts every row
 * it wraps onto (`rest`, as many spaces as the bullet is wide), and its text.
 */
export interface StyledLine {
  readonly first: readonly Run[];
  readonly rest: readonly Run[];
  readonly runs: readonly Run[];
}

export interface RowOptions {
  /** The terminal's width; `undefined` or 0 (unknown): rows are not broken. */
  readonly columns: number | undefined;
  readonly color: boolean;
}

export function plain(text: string): Run {
  return { text, style: [] };
}

/**
 * The lines as terminal rows, each indented like all model text and broken here between words
 * (inside a word only when it is longer than a row) rather than by the terminal, so that no row
 * of it starts at column 0. A styled piece is closed again before its row ends: no escape sequence
 * spans a line break, and none is ever cut by one.
 */
export function layOutStyledLines(lines: readonly StyledLine[], options: RowOptions): string {
  const usable = usableCells(options.columns);
  return lines.flatMap((line) => rowsOf(line, usable, options.color)).join("\n");
}

interface Cell {
  readonly char: string;
  readonly style: readonly string[];
  readonly cells: number;
}

function rowsOf(line: StyledLine, usable: number, color: boolean): string[] {
  const chars: Cell[] = line.runs.flatMap((run) =>
    Array.from(run.text, (char) => ({ char, style: run.style, cells: cellsOf(char) })),
  );
  const start = (prefix: readonly Run[]): { text: string; used: number } => ({
    text: MODEL_INDENT + prefix.map((run) => paint(run.text, run.style, color)).join(""),
    used: MODEL_INDENT.length + prefix.reduce((sum, run) => sum + cellsOfText(run.text), 0),
  });
  const rows: string[] = [];
  let row = start(line.first);
  let placed: Cell[] = [];
  const breakRow = (): void => {
    while (placed.at(-1)?.char === " ") placed.pop();
    rows.push(row.text + paintCells(placed, color));
    row = start(line.rest);
    placed = [];
  };
  let index = 0;
  while (index < chars.length) {
    // A word and the blanks after it.
    let end = index;
    while (end < chars.length && chars[end]?.char !== " ") end += 1;
    const wordCells = chars.slice(index, end).reduce((sum, cell) => sum + cell.cells, 0);
    while (end < chars.length && chars[end]?.char === " ") end += 1;
    if (placed.length > 0 && row.used + wordCells > usable) {
      breakRow();
    }
    for (const cell of chars.slice(index, end)) {
      if (row.used + cell.cells > usable && placed.length > 0) {
        // Blanks that end a row are dropped rather than carried to the start of the next one.
        if (cell.char === " ") continue;
        breakRow();
      }
      placed.push(cell);
      row.used += cell.cells;
    }
    index = end;
  }
  rows.push(row.text + paintCells(placed, color));
  return rows;
}

/** Consecutive characters of the same run painted as one piece. */
function paintCells(cells: readonly Cell[], color: boolean): string {
  let out = "";
  let piece = "";
  let style: readonly string[] | undefined;
  for (const cell of cells) {
    if (cell.style !== style) {
      out += paint(piece, style ?? [], color);
      piece = "";
      style = cell.style;
    }
    piece += cell.char;
  }
  return out + paint(piece, style ?? [], color);
}

function paint(text: string, style: readonly string[], color: boolean): string {
  return color && style.length > 0 && text !== ""
    ? `\u001b[${style.join(";")}m${text}\u001b[0m`
    : text;
}
