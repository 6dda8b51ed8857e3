import { cellsOf } from "./terminal-cells.js";

/** The row being filled: how many cells it has used, and whether any text is on it yet. */
export interface OpenRow {
  used: number;
  empty: boolean;
}

/**
 * One line (no `\n` in it) broken into rows by the rule of `terminal-cells.ts`: the first piece
 * goes on the open row, each later piece starts a new row, whose prefix takes `restCells`. A row
 * takes at least one character, however narrow. Runs of printable ASCII (one cell each) are
 * measured and cut whole rather than character by character: a long answer is mostly such runs.
 * `row` is updated to the last row's state.
 */
export function breakIntoRows(
  line: string,
  row: OpenRow,
  usable: number,
  restCells: number,
): string[] {
  const pieces: string[] = [];
  let piece = "";
  const newRow = (): void => {
    pieces.push(piece);
    piece = "";
    row.used = restCells;
    row.empty = true;
  };
  let index = 0;
  while (index < line.length) {
    NOT_ONE_CELL.lastIndex = index;
    const plainEnd = NOT_ONE_CELL.exec(line)?.index ?? line.length;
    while (index < plainEnd) {
      if (row.used + 1 > usable && !row.empty) newRow();
      const take = Math.min(plainEnd - index, Math.max(usable - row.used, 1));
      piece += line.slice(index, index + take);
      row.used += take;
      row.empty = false;
      index += take;
    }
    if (index >= line.length) break;
    // One code point, as the string iterator gives it (a lone surrogate stays one code unit).
    const one = line.slice(index, index + ((line.codePointAt(index) ?? 0) > 0xffff ? 2 : 1));
    const cells = cellsOf(one);
    if (row.used + cells > usable && !row.empty) newRow();
    piece += one;
    row.used += cells;
    row.empty = false;
    index += one.length;
  }
  pieces.push(piece);
  return pieces;
}

/** The first character that is not printable ASCII. */
const NOT_ONE_CELL = /[^\x20-\x7e]/g;
