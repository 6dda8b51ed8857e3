// The per-character escaping and layout as they were before the fast paths (commit fc8d013), kept
// verbatim as the reference the fast paths are compared with (escaping-fast-path.test.ts).
/**
 * Characters a terminal draws as nothing, or as an ordinary blank. Padding a value with them pushes
 * its start off the screen while the screen still looks complete, so text shown to the person
 * turns every run of them into a visible count.
 *
 * Chosen by Unicode property, not by a list: white space of every kind (U+00A0, U+3000, U+2000 to
 * U+200A, U+205F, U+1680, …), default-ignorable code points (zero-width marks, variation selectors,
 * tag characters U+E0000 to U+E0FFF, the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, …),
 * controls, format characters (direction marks, overrides and isolates), line and paragraph
 * separators, lone surrogates, private-use and unassigned code points (a terminal has no glyph for
 * them). Added by hand, as VS Code's unicode highlighter does: U+2800 BRAILLE PATTERN BLANK,
 * U+FFFC OBJECT REPLACEMENT CHARACTER and U+133FC, which fonts draw empty.
 */
const HIDDEN =
  /^[\p{White_Space}\p{Default_Ignorable_Code_Point}\p{Cc}\p{Cf}\p{Zs}\p{Zl}\p{Zp}\p{Cs}\p{Co}\p{Cn}\u2800\ufffc\u{133fc}]$/u;

/** True for one code point (or lone surrogate) that renders blank or not at all. */
export function isHiddenCharacter(char: string): boolean {
  return HIDDEN.test(char);
}

/** Ordinary indentation and line breaks stay as they are below this many in a row. */
const ASCII_RUN_LIMIT = 32;
/** Any other blank or invisible characters: a few are escaped one by one, more become a count. */
const HIDDEN_RUN_LIMIT = 4;
/** A base letter with this many combining marks stacked on it is drawn as a smear: counted too. */
const MARK_RUN_LIMIT = 16;
const ASCII_BLANK = /^[ \t\r\n]$/u;
const COMBINING_MARK = /^\p{M}$/u;
const ASCII_NAMES: Readonly<Record<string, readonly [string, string]>> = {
  " ": ["space", "spaces"],
  "\t": ["tab", "tabs"],
  "\r": ["carriage return", "carriage returns"],
  "\n": ["newline", "newlines"],
};
/** A run of at most this many stretches of one character is described stretch by stretch. */
const NAMED_KINDS = 3;

/**
 * Replaces each long run of blank or invisible characters with a visible count: `⟨4100 spaces⟩`,
 * `⟨3000 × U+3164⟩`, `⟨4000 blank: 2000 spaces, 2000 × U+00A0⟩`. Short runs of ordinary spaces,
 * tabs and newlines stay; the few other hidden characters left are for `escapeForTerminal` to show.
 */
export function collapseHiddenRuns(text: string): string {
  let shown = "";
  let run: string[] = [];
  let marks: string[] = [];
  const flushRun = (): void => {
    shown += describeHiddenRun(run);
    run = [];
  };
  const flushMarks = (): void => {
    shown += marks.length >= MARK_RUN_LIMIT ? `⟨${marks.length} combining marks⟩` : marks.join("");
    marks = [];
  };
  for (const char of text) {
    if (isHiddenCharacter(char)) {
      flushMarks();
      run.push(char);
    } else if (COMBINING_MARK.test(char)) {
      flushRun();
      marks.push(char);
    } else {
      flushRun();
      flushMarks();
      shown += char;
    }
  }
  flushRun();
  flushMarks();
  return shown;
}

function describeHiddenRun(run: readonly string[]): string {
  if (run.length === 0) return "";
  const segments = sameCharacterSegments(run);
  // `⟨4100 spaces⟩\n` reads better than one mixed count; alternating padding is counted as one.
  if (segments.length <= NAMED_KINDS) {
    return segments
      .map(({ char, count }) =>
        count < runLimit([char]) ? char.repeat(count) : `⟨${describeKind(char, count)}⟩`,
      )
      .join("");
  }
  if (run.length < runLimit(run)) return run.join("");
  const counts = new Map<string, number>();
  for (const char of run) counts.set(char, (counts.get(char) ?? 0) + 1);
  const kinds = [...counts].map(([char, count]) => describeKind(char, count));
  const named = kinds.slice(0, NAMED_KINDS).join(", ");
  const more = kinds.length > NAMED_KINDS ? ", …" : "";
  return `⟨${run.length} blank: ${named}${more}⟩`;
}

function runLimit(run: readonly string[]): number {
  return run.every((char) => ASCII_BLANK.test(char)) ? ASCII_RUN_LIMIT : HIDDEN_RUN_LIMIT;
}

function sameCharacterSegments(run: readonly string[]): { char: string; count: number }[] {
  const segments: { char: string; count: number }[] = [];
  for (const char of run) {
    const last = segments.at(-1);
    if (last?.char === char) last.count += 1;
    else segments.push({ char, count: 1 });
  }
  return segments;
}

function describeKind(char: string, count: number): string {
  const names = ASCII_NAMES[char];
  if (names !== undefined) return `${count} ${count === 1 ? names[0] : names[1]}`;
  const code = (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
  return `${count} × U+${code}`;
}

/**
 * Text from the model shown to a person must not be able to drive the terminal: an ESC sequence could
 * erase the approval prompt and draw a harmless-looking one. Every control character (C0, DEL, C1
 * such as the one-byte CSI U+009B), every invisible format character (direction overrides and
 * isolates, zero-width marks, Unicode tag characters that can smuggle hidden text), the line and
 * paragraph separators, lone surrogates, and every other character that renders blank (U+00A0,
 * U+3000, U+2800, the Hangul fillers, …; see `hidden-characters.ts`) is shown as a visible `\u{…}`
 * escape instead. Only the ordinary space stays. Newlines and tabs are escaped too so one value
 * stays on one line of the prompt.
 */
export function escapeForTerminal(text: string): string {
  let shown = "";
  for (const char of text) {
    shown += char !== " " && isHiddenCharacter(char) ? visibleEscape(char) : char;
  }
  return shown;
}

/**
 * Harness or model text on one line of a prompt or listing: long runs of blank or invisible
 * characters become a count first (padding cannot push the start of a value off the screen), then
 * every remaining escape is made visible.
 */
export function escapeForPrompt(text: string): string {
  return escapeForTerminal(collapseHiddenRuns(text));
}

function visibleEscape(char: string): string {
  switch (char) {
    case "\n":
      return "\\n";
    case "\r":
      return "\\r";
    case "\t":
      return "\\t";
    default:
      return `\\u{${(char.codePointAt(0) ?? 0).toString(16).padStart(4, "0")}}`;
  }
}

/**
 * For longer text meant to be read as written (the final answer on a terminal): line breaks and
 * tabs stay, while every other control character, the one-byte CSI included, and the direction
 * overrides that reorder what a person reads are escaped. Emoji joiners and the like stay intact.
 */
export function escapeControlsKeepingLines(text: string): string {
  let shown = "";
  for (const char of text.replaceAll("\r\n", "\n")) {
    shown +=
      char !== "\n" && char !== "\t" && DRIVES_TERMINAL.test(char) ? visibleEscape(char) : char;
  }
  return shown;
}

/** Cc control, bidi embeddings/overrides/isolates, lone surrogates. */
const DRIVES_TERMINAL = /^[\p{Cc}\u202a-\u202e\u2066-\u2069\p{Cs}]$/u;

/** Shortens for display without cutting a surrogate pair, and says how much was left out. */
export function truncateForDisplay(text: string, maxChars: number): string {
  const characters = Array.from(text);
  if (characters.length <= maxChars) return text;
  const omitted = characters.length - maxChars;
  return `${characters.slice(0, maxChars).join("")}… (${omitted} more characters not shown)`;
}

/** Keeps the start and the last `tailChars` of a long text, saying how much of the middle is gone. */
export function elideMiddle(text: string, maxChars: number, tailChars: number): string {
  const characters = Array.from(text);
  if (characters.length <= maxChars) return text;
  const head = characters.slice(0, maxChars - tailChars).join("");
  const tail = characters.slice(characters.length - tailChars).join("");
  const omitted = characters.length - maxChars;
  return `${head} … (${omitted} more characters not shown) … ${tail}`;
}
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
 * On a terminal, only the harness writes at column 0: `[Permission] …`, `→ …`, `✓ …`, the prompt's
 * labels. Text that comes from the model (the final answer, tool output, arguments) is indented,
 * and broken into rows here rather than by the terminal, so that not even a wrapped row of it can
 * begin at column 0 and pass for an audit line.
 */

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
  const rows: string[] = [];
  let prefix = layout.first;
  let row = "";
  let used = cellsOfText(prefix);
  for (const char of line) {
    const cells = cellsOf(char);
    if (used + cells > usable && row !== "") {
      rows.push(`${prefix}${row}`);
      prefix = layout.rest;
      row = "";
      used = cellsOfText(prefix);
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

/** Code units of a blank run held back at most before it is shown (counted) anyway. */
const HELD_LIMIT = 4096;

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
    const text = this.#held + piece;
    let cut = heldFrom(text, this.#held.length);
    // A very long run is shown in parts, each counted, rather than kept back without end.
    if (text.length - cut > HELD_LIMIT) cut = withoutTrailingHighSurrogate(text);
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

  #show(text: string): string {
    return this.#write(escapeControlsKeepingLines(collapseHiddenRuns(text)));
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
    // A row holding only the line's leading blanks is not ended: it would show empty.
    if (placed.some((cell) => cell.char !== " ") && row.used + wordCells > usable) {
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
