import type { OutputSink } from "./stream-reader.js";

/**
 * Above this many bytes of blanks waiting on one line, they are passed on as they are: memory
 * stays bounded whatever a command prints, and a blank run that long is no line's ending.
 */
const MAX_PENDING_BLANKS = 1024 * 1024;

const NEWLINE = 0x0a;

/** Space, tab, CR, VT, FF: what a terminal shows as nothing at a line's end. */
function isBlank(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0d || byte === 0x0b || byte === 0x0c;
}

/**
 * Drops blanks at the end of every line and blank lines at the end of the output, before the
 * output is capped: a table padded to a wide terminal's width (one test runner's failure was 45 KB,
 * mostly spaces) then costs the model nothing, and the cap's head and tail hold that much more
 * text. Works on the interleaved stream, as the model reads it; blanks are held back until the
 * line's next character says whether they ended it, and `finish()` drops what is still held.
 */
export class TrailingBlanks implements OutputSink {
  readonly #sink: OutputSink;
  /** A line of only this (the stderr mark, its space dropped) is a blank line too. */
  readonly #blankMark: Buffer;
  /** Nothing of the current line seen yet, not even a blank. */
  #lineFresh = true;
  /** Blanks since the last character of the current line, not yet known to end it. */
  #blanks: Buffer = Buffer.alloc(0);
  #blankLength = 0;
  /** Newlines since the last character: their lines were blank, or ended in them. */
  #newlines = 0;
  #wroteText = false;
  /** What one append passes on, reused from call to call. */
  #out: Buffer = Buffer.alloc(0);

  constructor(sink: OutputSink, stderrMark = "") {
    this.#sink = sink;
    this.#blankMark = Buffer.from(stderrMark.trimEnd(), "utf8");
  }

  get full(): boolean | undefined {
    return this.#sink.full;
  }

  append(bytes: Buffer): void {
    let length = 0;
    let from = 0;
    while (from < bytes.length) {
      const newline = bytes.indexOf(NEWLINE, from);
      const lineEnd = newline === -1 ? bytes.length : newline;
      let textEnd = lineEnd;
      while (textEnd > from && isBlank(bytes[textEnd - 1] ?? 0)) textEnd -= 1;
      if (this.#lineFresh && this.#isMarkOnly(bytes, from, textEnd)) textEnd = from;
      if (lineEnd > from) this.#lineFresh = false;
      if (textEnd > from) {
        // Text on this line: what was held before it was part of the output after all.
        const room = this.#newlines + this.#blankLength + (textEnd - from);
        const out = this.#room(length + room);
        out.fill(NEWLINE, length, length + this.#newlines);
        length += this.#newlines;
        length += this.#blanks.copy(out, length, 0, this.#blankLength);
        length += bytes.copy(out, length, from, textEnd);
        this.#newlines = 0;
        this.#blankLength = 0;
        this.#wroteText = true;
      }
      if (newline === -1) {
        length = this.#hold(bytes, textEnd, lineEnd, length);
        break;
      }
      this.#blankLength = 0;
      this.#newlines += 1;
      this.#lineFresh = true;
      from = newline + 1;
    }
    if (length > 0) this.#sink.append(this.#out.subarray(0, length));
  }

  /** The output has ended: its last line keeps its newline, the blanks after it are dropped. */
  finish(): void {
    if (this.#wroteText && this.#newlines > 0) this.#sink.append(Buffer.from("\n"));
    this.#newlines = 0;
    this.#blankLength = 0;
  }

  /**
   * Holds `bytes[start, end)`, blanks at the end of a line not yet ended; past the cap what is held
   * is passed on instead (after `length` bytes already in the out buffer). Returns the new length.
   */
  #hold(bytes: Buffer, start: number, end: number, length: number): number {
    const size = this.#blankLength + (end - start);
    if (size <= MAX_PENDING_BLANKS) {
      if (this.#blanks.length < size) {
        const grown = Buffer.allocUnsafe(Math.max(size, 2 * this.#blanks.length, 256));
        this.#blanks.copy(grown, 0, 0, this.#blankLength);
        this.#blanks = grown;
      }
      this.#blankLength += bytes.copy(this.#blanks, this.#blankLength, start, end);
      return length;
    }
    const out = this.#room(length + this.#newlines + size);
    out.fill(NEWLINE, length, length + this.#newlines);
    let next = length + this.#newlines;
    next += this.#blanks.copy(out, next, 0, this.#blankLength);
    next += bytes.copy(out, next, start, end);
    this.#newlines = 0;
    this.#blankLength = 0;
    this.#wroteText = true;
    return next;
  }

  /** `bytes[start, end)` is the stderr mark and nothing else: an empty line of stderr. */
  #isMarkOnly(bytes: Buffer, start: number, end: number): boolean {
    const mark = this.#blankMark;
    return (
      mark.length > 0 &&
      end - start === mark.length &&
      bytes.compare(mark, 0, mark.length, start, end) === 0
    );
  }

  /** The out buffer, grown to hold `size` bytes, keeping what it holds. */
  #room(size: number): Buffer {
    if (this.#out.length < size) {
      const grown = Buffer.allocUnsafe(Math.max(size, 2 * this.#out.length));
      this.#out.copy(grown);
      this.#out = grown;
    }
    return this.#out;
  }
}
