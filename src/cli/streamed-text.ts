import { MODEL_INDENT } from "./terminal-layout.js";
import { escapeControlsKeepingLines } from "./terminal-text.js";

/** Below this the terminal is too narrow to lay anything out (as in terminal-layout.ts). */
const MIN_ROW_CELLS = 20;
const TAB_CELLS = 8;

/**
 * Model text arriving in pieces, laid out for a terminal as it comes: escaped like the final answer
 * (line breaks and tabs stay, anything that drives the terminal is shown as an escape), every row
 * indented, and broken into rows here so that no wrapped row starts at column 0. It counts the rows
 * it has started, so the caller can erase them again.
 */
export class StreamedText {
  readonly #columns: number | undefined;
  #used = 0;
  #rows = 0;
  #started = false;
  /** A carriage return at the end of a piece may be the first half of a CRLF. */
  #pendingReturn = false;

  constructor(columns: number | undefined) {
    this.#columns = columns;
  }

  /** True once any text was shown. */
  get started(): boolean {
    return this.#started;
  }

  /** Newlines written so far: how many rows up the first one is. */
  get rowsAbove(): number {
    return this.#rows;
  }

  /** What to write for `piece`. */
  add(piece: string): string {
    let text = (this.#pendingReturn ? "\r" : "") + piece;
    this.#pendingReturn = text.endsWith("\r");
    if (this.#pendingReturn) text = text.slice(0, -1);
    return this.#write(escapeControlsKeepingLines(text));
  }

  /** What ends the text: a lone carriage return left over, and the line break after the last row. */
  end(): string {
    const rest = this.#pendingReturn ? this.#write(escapeControlsKeepingLines("\r")) : "";
    this.#pendingReturn = false;
    if (!this.#started) return "";
    this.#rows += 1;
    return `${rest}\n`;
  }

  #write(shown: string): string {
    if (shown === "") return "";
    let out = "";
    if (!this.#started) {
      this.#started = true;
      out += MODEL_INDENT;
      this.#used = MODEL_INDENT.length;
    }
    const usable =
      this.#columns === undefined || this.#columns <= 0
        ? Number.POSITIVE_INFINITY
        : Math.max(this.#columns - 1, MIN_ROW_CELLS);
    for (const char of shown) {
      if (char === "\n") {
        out += `\n${MODEL_INDENT}`;
        this.#rows += 1;
        this.#used = MODEL_INDENT.length;
        continue;
      }
      const cells = cellsOf(char);
      if (this.#used + cells > usable && this.#used > MODEL_INDENT.length) {
        out += `\n${MODEL_INDENT}`;
        this.#rows += 1;
        this.#used = MODEL_INDENT.length;
      }
      out += char;
      this.#used += cells;
    }
    return out;
  }
}

function cellsOf(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if (code === 0x09) return TAB_CELLS;
  return code >= 0x20 && code < 0x7f ? 1 : 2;
}
