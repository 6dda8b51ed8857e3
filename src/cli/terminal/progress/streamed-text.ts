import { collapseHiddenRuns, isHiddenCharacter } from "../render/hidden-characters.js";
import { breakIntoRows } from "../render/row-breaks.js";
import type { StreamedLayout } from "./streamed-layout.js";
import { usableCells } from "../render/terminal-cells.js";
import { MODEL_INDENT } from "../render/terminal-layout.js";
import { escapeControlsKeepingLines } from "../render/terminal-text.js";

/** Code units of a blank run held back at most before it is shown (counted) anyway. */
const HELD_LIMIT = 4096;
const COMBINING_MARK = /^\p{M}$/u;

/**
 * Model text arriving in pieces, laid out for a terminal as it comes: escaped like the final answer
 * (line breaks and tabs stay, anything that drives the terminal is shown as an escape, long runs of
 * blank or invisible characters are counted, however the pieces cut them), every row
 * indented, and broken into rows here so that no wrapped row starts at column 0. It counts the rows
 * it has started, so the caller can erase them again.
 */
export class StreamedText {
  readonly #columns: number | undefined;
  #used = 0;
  #rows = 0;
  #started = false;
  /**
   * The end of the text so far that may still change how it is shown: a run of blank or invisible
   * characters (or combining marks) that the next piece may make longer, to be counted as one
   * (`⟨40 × U+200B⟩`, as everywhere else), a carriage return that may be the first half of a CRLF,
   * a high surrogate whose low half is still to come.
   */
  #held = "";
  /** The text as it came, in the pieces it came in. */
  readonly #received: string[] = [];
  /** What was written for it, in the same order: the rows it is shown in. */
  readonly #written: string[] = [];
  #escapedChars = 0;
  /** The text as shown, escaped, before it was broken into rows. */
  readonly #escaped: string[] = [];
  #lineBreaks = 0;
  /** False once a long run was shown in counted parts: the whole text would count it as one. */
  #inOnePiece = true;

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
    this.#received.push(piece);
    const text = this.#held + piece;
    let cut = heldFrom(text, this.#held.length);
    // A very long run is shown in parts, each counted, rather than kept back without end.
    if (text.length - cut > HELD_LIMIT) {
      cut = withoutTrailingHighSurrogate(text);
      this.#inOnePiece = false;
    }
    this.#held = text.slice(cut);
    return this.#show(text.slice(0, cut));
  }

  /** What ends the text: whatever was held back, and the line break after the last row. */
  end(): string {
    const rest = this.#show(this.#held);
    this.#held = "";
    if (!this.#started) return "";
    this.#rows += 1;
    return `${rest}\n`;
  }

  /**
   * After `end()`: the text as shown (escaped) when a row of it was wrapped, which a streamed row
   * does at the column, mid-word, as the next word has not come yet; undefined when none was.
   */
  wrappedText(): string | undefined {
    return this.#rows - 1 > this.#lineBreaks ? this.#escaped.join("") : undefined;
  }

  /**
   * After `end()`: the text and the rows it was shown in, the same as for the whole text escaped
   * and laid out at once (the differential test in escaping-fast-path.test.ts checks it);
   * `undefined` when a long run was counted in parts.
   */
  laidOut(): StreamedLayout | undefined {
    if (!this.#inOnePiece) return undefined;
    return {
      text: this.#received.join(""),
      columns: this.#columns,
      escapedChars: this.#escapedChars,
      rows: this.#written.join(""),
    };
  }

  #show(text: string): string {
    const escaped = escapeControlsKeepingLines(collapseHiddenRuns(text));
    this.#escapedChars += escaped.length;
    this.#escaped.push(escaped);
    const shown = this.#write(escaped);
    this.#written.push(shown);
    return shown;
  }

  #write(shown: string): string {
    if (shown === "") return "";
    let out = "";
    if (!this.#started) {
      this.#started = true;
      out += MODEL_INDENT;
      this.#used = MODEL_INDENT.length;
    }
    const usable = usableCells(this.#columns);
    const row = { used: this.#used, empty: this.#used <= MODEL_INDENT.length };
    for (const [index, line] of shown.split("\n").entries()) {
      if (index > 0) {
        out += `\n${MODEL_INDENT}`;
        this.#rows += 1;
        this.#lineBreaks += 1;
        row.used = MODEL_INDENT.length;
        row.empty = true;
      }
      const pieces = breakIntoRows(line, row, usable, MODEL_INDENT.length);
      out += pieces.join(`\n${MODEL_INDENT}`);
      this.#rows += pieces.length - 1;
    }
    this.#used = row.used;
    return out;
  }
}

/**
 * Where the held-back end of `text` starts: its last run of hidden characters or combining marks.
 * The first `heldBefore` code units were all such a run already (only their last one, a high
 * surrogate, can change, by pairing with the piece after it), so the search stops there.
 */
function heldFrom(text: string, heldBefore: number): number {
  let end = text.length;
  while (end > 0) {
    const start = codePointStart(text, end);
    const char = text.slice(start, end);
    if (!isHiddenCharacter(char) && !COMBINING_MARK.test(char)) return end;
    end = start;
    if (end <= heldBefore) return 0;
  }
  return 0;
}

function codePointStart(text: string, end: number): number {
  const low = text.charCodeAt(end - 1);
  const high = end >= 2 ? text.charCodeAt(end - 2) : 0;
  return isLowSurrogate(low) && high >= 0xd800 && high <= 0xdbff ? end - 2 : end - 1;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** All of `text`, but a high surrogate at its very end, which waits for its low half. */
function withoutTrailingHighSurrogate(text: string): number {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? text.length - 1 : text.length;
}
