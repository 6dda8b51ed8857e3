/** Where a tab moves the cursor at most. */
const TAB_CELLS = 8;

/**
 * How many terminal cells one character may take, over-estimated so the terminal never wraps a row
 * on its own: printable ASCII is one cell, a tab eight, everything else two (wide CJK, emoji; a
 * combining mark or an escape's own characters then just end a row a little early).
 */
export function cellsOf(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if (code === 0x09) return TAB_CELLS;
  return code >= 0x20 && code < 0x7f ? 1 : 2;
}

/** The cells of a whole text, by the same rule. */
export function cellsOfText(text: string): number {
  let cells = 0;
  for (const char of text) cells += cellsOf(char);
  return cells;
}

/** Below this the terminal is too narrow to lay anything out: rows are then at most this wide. */
const MIN_ROW_CELLS = 20;

/**
 * How many cells of a row text may fill: one short of the width, since a row that fills the last
 * column leaves some terminals about to wrap. Unknown width (a pipe, or a pty that reports 0): no
 * limit.
 */
export function usableCells(columns: number | undefined): number {
  if (columns === undefined || columns <= 0) return Number.POSITIVE_INFINITY;
  return Math.max(columns - 1, MIN_ROW_CELLS);
}

/**
 * `text` cut to fit `cells` (by the rule of `cellsOf`), its end replaced by `…` when cut: a listing
 * row that stays one row on the screen, as a piped one is cut to one line. Unbounded: as it is.
 */
export function cutToCells(text: string, cells: number): string {
  if (cellsOfText(text) <= cells) return text;
  const room = cells - cellsOf(ELLIPSIS);
  let kept = "";
  let used = 0;
  for (const char of text) {
    used += cellsOf(char);
    if (used > room) break;
    kept += char;
  }
  return `${kept}${ELLIPSIS}`;
}

const ELLIPSIS = "…";
