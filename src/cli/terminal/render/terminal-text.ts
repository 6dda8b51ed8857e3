import { collapseHiddenRuns, HIDDEN_CLASS } from "./hidden-characters.js";

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
  // Nothing printable in ASCII is hidden but the space, which stays: such text (most of what is
  // shown) needs neither the pattern nor ICU's expansion of its classes (~2 ms at first use).
  if (PRINTABLE_ASCII.test(text)) return text;
  // One scan finds what needs care; the runs of plain text between are copied as they are.
  hiddenButSpace ??= new RegExp(`(?! )[${HIDDEN_CLASS}]`, "gu");
  return text.replace(hiddenButSpace, visibleEscape);
}

/**
 * Every hidden character (`hidden-characters.ts`) but the ordinary space, one code point each;
 * built at first use, as expanding the property classes costs a start-up ~0.3 ms.
 */
let hiddenButSpace: RegExp | undefined;

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

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
  // Printable ASCII, line breaks and tabs, the most of any answer, pass as they are.
  if (!BEYOND_PLAIN.test(text)) return text;
  return text.replaceAll("\r\n", "\n").replace(DRIVES_TERMINAL, visibleEscape);
}

const BEYOND_PLAIN = /[^\x20-\x7e\n\t]/u;

/** Cc control but the line break and tab, bidi embeddings/overrides/isolates, lone surrogates. */
const DRIVES_TERMINAL = /(?![\n\t])[\p{Cc}\u202a-\u202e\u2066-\u2069\p{Cs}]/gu;

/**
 * Shortens for display without cutting a surrogate pair, and says how much was left out; a text
 * whose hidden part would be no longer than the saying of it is shown whole.
 */
export function truncateForDisplay(text: string, maxChars: number): string {
  const characters = Array.from(text);
  if (characters.length <= maxChars) return text;
  const omitted = characters.length - maxChars;
  const marker = `… (${moreCharacters(omitted)} not shown)`;
  if (Array.from(marker).length >= omitted) return text;
  return `${characters.slice(0, maxChars).join("")}${marker}`;
}

/**
 * The start and the last `tailChars` of a long text, and a note of how much of the middle is gone
 * (`… (N more characters not shown) …`), apart, so the note can be kept on one row; `undefined`
 * when the text is short enough to show whole.
 */
export function elideMiddleParts(
  text: string,
  maxChars: number,
  tailChars: number,
): { head: string; note: string; tail: string } | undefined {
  const characters = Array.from(text);
  if (characters.length <= maxChars) return undefined;
  const head = characters.slice(0, maxChars - tailChars).join("");
  const tail = characters.slice(characters.length - tailChars).join("");
  const omitted = characters.length - maxChars;
  return { head, note: `… (${moreCharacters(omitted)} not shown) …`, tail };
}

function moreCharacters(count: number): string {
  return `${String(count)} more ${count === 1 ? "character" : "characters"}`;
}
