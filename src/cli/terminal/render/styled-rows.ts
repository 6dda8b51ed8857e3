import { MODEL_INDENT } from "./terminal-layout.js";
import { cellsOf, cellsOfText, usableCells } from "./terminal-cells.js";

/**
 * A piece of text with its look. `text` is already safe for the terminal (escaped); `style` holds
 * SGR parameters (`"1"` bold, `"36"` cyan, …), written only when colour is on.
 */
export interface Run {
  readonly text: string;
  readonly style: readonly string[];
  /**
   * Kept on one row where it fits on one, blanks and all (a duration like `(3.5 s)`): a row is
   * then broken before it rather than at a blank inside it.
   */
  readonly whole?: boolean;
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
  return lines.flatMap((line) => rowsOf(line, usable, options.color, MODEL_INDENT)).join("\n");
}

/**
 * One of the harness's own lines (`✓ …`, `→ …`) as terminal rows: its first row starts at column
 * 0, the rows it wraps onto are indented like model text, so none of them passes for a harness
 * line. Broken as `layOutStyledLines` breaks, between words, and painted row by row after that:
 * an escape sequence is never cut, never counted as cells, and closed on the row it opened on.
 * Width unknown: one row, the runs painted as they are. `rest`: what starts each wrapped row, at
 * least MODEL_INDENT (a listing's rows hang under its second column).
 */
export function layOutHarnessLine(
  runs: readonly Run[],
  options: RowOptions,
  rest: string = MODEL_INDENT,
): string {
  const line: StyledLine = { first: [], rest: [plain(rest)], runs };
  return rowsOf(line, usableCells(options.columns), options.color, "").join("\n");
}

/**
 * Plain text (escaped already) as rows broken between words, as `layOutHarnessLine` breaks them,
 * with `first` before the first row and `rest` before each wrapped one; uncoloured.
 */
export function layOutWords(
  text: string,
  layout: { readonly columns: number | undefined; readonly first: string; readonly rest: string },
): string {
  const line: StyledLine = {
    first: [plain(layout.first)],
    rest: [plain(layout.rest)],
    runs: [plain(text)],
  };
  return rowsOf(line, usableCells(layout.columns), false, "").join("\n");
}

/** Every line of a model text (escaped already) indented, and broken into rows between words. */
export function layOutModelWords(text: string, columns: number | undefined): string {
  return text
    .split("\n")
    .map((line) => layOutWords(line, { columns, first: MODEL_INDENT, rest: MODEL_INDENT }))
    .join("\n");
}

/** A run of the line, placed by code-unit offsets in the line's whole text. */
interface Span {
  readonly start: number;
  readonly end: number;
  readonly style: readonly string[];
  readonly whole: boolean;
}

/** `indent`: what starts every row, before the line's own `first` or `rest`. */
function rowsOf(line: StyledLine, usable: number, color: boolean, indent: string): string[] {
  const { text, spans } = joined(line.runs);
  const kept = spans.filter((span) => span.whole);
  const start = (prefix: readonly Run[]): number =>
    cellsOfText(indent) + prefix.reduce((sum, run) => sum + cellsOfText(run.text), 0);
  const prefixText = (prefix: readonly Run[]): string =>
    indent + prefix.map((run) => paint(run.text, run.style, color)).join("");
  // Width unknown (a pipe, a log): one row, as the loop below would make it, without its walk
  // over every character of every audit and result line.
  if (usable === Number.POSITIVE_INFINITY) {
    return [prefixText(line.first) + paintRange(text, spans, 0, text.length, color)];
  }
  const rows: string[] = [];
  // The row being filled is text[rowStart, rowEnd), after its prefix.
  let prefix = prefixText(line.first);
  let used = start(line.first);
  let rowStart = 0;
  let rowEnd = 0;
  // Whether the row holds more than blanks (a line may start with some, a code block's indent).
  let worded = false;
  const breakRow = (next: number): void => {
    // Blanks that end a row are dropped rather than carried to the start of the next one.
    while (rowEnd > rowStart && text.charCodeAt(rowEnd - 1) === SPACE) rowEnd -= 1;
    rows.push(prefix + paintRange(text, spans, rowStart, rowEnd, color));
    prefix = prefixText(line.rest);
    used = start(line.rest);
    rowStart = next;
    rowEnd = next;
    worded = false;
  };
  let index = 0;
  while (index < text.length) {
    // A word and the blanks after it.
    const wordEnd = wordEndFrom(text, kept, index);
    let end = wordEnd;
    while (end < text.length && text.charCodeAt(end) === SPACE) end += 1;
    // A word too long for what is left of a row starts the next, unless this one holds only the
    // line's leading blanks: it would be left empty. It is then broken inside, as on a row alone.
    if (worded && used + cellsOfRange(text, index, wordEnd) > usable) {
      breakRow(index);
    }
    while (index < end) {
      const size = codePointSize(text, index);
      const cells = cellsAt(text, index);
      if (used + cells > usable && rowEnd > rowStart) {
        // Only the blanks after a word can be left over here: the next word starts a new row.
        if (text.charCodeAt(index) === SPACE) {
          index += 1;
          continue;
        }
        breakRow(index);
      }
      if (text.charCodeAt(index) !== SPACE) worded = true;
      index += size;
      rowEnd = index;
      used += cells;
    }
  }
  rows.push(prefix + paintRange(text, spans, rowStart, rowEnd, color));
  return rows;
}

const SPACE = 0x20;

/**
 * The runs' text as one string, and where each run lies in it. Empty runs are left out and
 * neighbours sharing one style are joined, so a style is opened once for them.
 */
function joined(runs: readonly Run[]): { text: string; spans: Span[] } {
  let text = "";
  const spans: Span[] = [];
  for (const run of runs) {
    if (run.text === "") continue;
    const last = spans.at(-1);
    const end = text.length + run.text.length;
    const whole = run.whole === true;
    if (last?.style === run.style && !whole && !last.whole) {
      spans[spans.length - 1] = { ...last, end };
    } else spans.push({ start: text.length, end, style: run.style, whole });
    text += run.text;
  }
  return { text, spans };
}

/** Where the word at `from` ends: at the next blank that is not inside a run kept whole. */
function wordEndFrom(text: string, kept: readonly Span[], from: number): number {
  let end = text.indexOf(" ", from);
  while (end !== -1) {
    const inside = kept.find((span) => span.start < end && end < span.end);
    if (inside === undefined) return end;
    end = text.indexOf(" ", inside.end);
  }
  return text.length;
}

/** text[from, to) painted run by run. */
function paintRange(
  text: string,
  spans: readonly Span[],
  from: number,
  to: number,
  color: boolean,
): string {
  let out = "";
  for (const span of spans) {
    if (span.end <= from) continue;
    if (span.start >= to) break;
    const piece = text.slice(Math.max(span.start, from), Math.min(span.end, to));
    out += paint(piece, span.style, color);
  }
  return out;
}

/** Code units of the code point at `index` (a lone surrogate is one, as the string iterator says). */
function codePointSize(text: string, index: number): number {
  return (text.codePointAt(index) ?? 0) > 0xffff ? 2 : 1;
}

/** `cellsOf` for the code point at `index`, without cutting it out of the text. */
function cellsAt(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return code >= 0x20 && code < 0x7f
    ? 1
    : cellsOf(text.slice(index, index + codePointSize(text, index)));
}

function cellsOfRange(text: string, from: number, to: number): number {
  let cells = 0;
  for (let index = from; index < to; index += codePointSize(text, index)) {
    cells += cellsAt(text, index);
  }
  return cells;
}

function paint(text: string, style: readonly string[], color: boolean): string {
  return color && style.length > 0 && text !== ""
    ? `\u001b[${style.join(";")}m${text}\u001b[0m`
    : text;
}
