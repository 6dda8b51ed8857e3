/**
 * A reply's text on the terminal while it streams in, kept shorter than the screen. A draft that
 * scrolled past the top could not be erased again (the cursor cannot move above the screen), so
 * the final answer printed under what was left of it: two copies. Once the draft would reach
 * `screenRows - 2` rows (its `…` row included) it stops growing and its last row says `…`; the text goes on being laid
 * out (for the answer's view) and, when the reply is complete, the draft is erased: the final
 * answer takes its place, or text beside tool calls is written again whole, to stay.
 */
import { layOutModelWords } from "../render/styled-rows.js";
import { MODEL_INDENT } from "../render/terminal-layout.js";
import type { StreamedLayout } from "./streamed-layout.js";
import { StreamedText } from "./streamed-text.js";

export class StreamedDraft {
  readonly #text: StreamedText;
  readonly #maxRows: number;
  readonly #dim: (text: string) => string;
  readonly #columns: number | undefined;
  /** Every row the text gave, undimmed, whether shown or not. */
  #all = "";
  /** Line breaks written on the screen: how many rows up the draft's first one is. */
  #rows = 0;
  #cut = false;

  constructor(columns: number | undefined, screenRows: number, dim: (text: string) => string) {
    this.#text = new StreamedText(columns);
    this.#columns = columns;
    // With the row after it, the draft takes at most all rows but one: erasing it then never
    // clears the whole screen, which some terminals (tmux's scroll-on-clear) keep in scrollback.
    this.#maxRows = Math.max(1, screenRows - 3);
    this.#dim = dim;
  }

  /** True once any text was shown. */
  get started(): boolean {
    return this.#text.started;
  }

  /** What to write for `piece`. */
  add(piece: string): string {
    const shown = this.#text.add(piece);
    this.#all += shown;
    if (this.#cut || shown === "") return "";
    const breaks = countBreaks(shown);
    if (this.#rows + breaks < this.#maxRows) {
      this.#rows += breaks;
      return this.#dim(shown);
    }
    // Only as many rows as fit, then a row that says more is coming.
    const allowed = this.#maxRows - this.#rows - 1;
    const head = shown.slice(0, nthBreak(shown, allowed + 1));
    this.#rows = this.#maxRows;
    this.#cut = true;
    return this.#dim(`${head}\n${MODEL_INDENT}…`);
  }

  /**
   * What ends the draft. `stays`: the text beside tool calls, left on the screen (written again
   * whole when it was cut); otherwise the draft is erased for the final answer to take its place.
   */
  end(stays: boolean): string {
    const rest = this.#text.end();
    this.#all += rest;
    if (!this.#text.started) return "";
    // Text that stays is written again broken between words where a row was cut mid-word.
    const wrapped = stays ? this.#text.wrappedText() : undefined;
    const kept =
      wrapped === undefined ? this.#all : `${layOutModelWords(wrapped, this.#columns)}\n`;
    if (!this.#cut) {
      this.#rows += countBreaks(rest);
      if (!stays) return `${this.#dim(rest)}${erase(this.#rows)}`;
      return wrapped === undefined
        ? this.#dim(rest)
        : `${this.#dim(rest)}${erase(this.#rows)}${this.#dim(kept)}`;
    }
    const rows = this.#rows + 1;
    return stays ? `\n${erase(rows)}${this.#dim(kept)}` : `\n${erase(rows)}`;
  }

  /** After `end()`: the text and its rows as laid out (streamed-layout.ts). */
  laidOut(): StreamedLayout | undefined {
    return this.#text.laidOut();
  }
}

function erase(rows: number): string {
  return rows === 0 ? "\r\u001b[J" : `\r\u001b[${String(rows)}A\u001b[J`;
}

function countBreaks(text: string): number {
  let count = 0;
  for (const char of text) if (char === "\n") count += 1;
  return count;
}

/** The index of the `n`th line break of `text` (1-based); its length when there are fewer. */
function nthBreak(text: string, n: number): number {
  let at = -1;
  for (let seen = 0; seen < n; seen += 1) {
    at = text.indexOf("\n", at + 1);
    if (at === -1) return text.length;
  }
  return at;
}
