/**
 * Typed keys cut into the keys readline must decode (control characters, and escape sequences such
 * as the arrows and Home) and runs of plain text, which the prompt inserts at the cursor itself.
 *
 * Node's readline takes a read of several characters as a paste: all but its last character are
 * appended to the end of the line, wherever the cursor is, and the line is not redrawn when they
 * wrap. So text that arrives as one read (an input method's `修复`, a paste in a terminal without
 * bracketed paste, keys typed faster than they are read) went in at the wrong place, and a wrapped
 * line was later redrawn a row too low. Inserted by `Interface.write` it goes in at the cursor, as
 * each typed character does, and in one piece: a long line costs one redraw, not one per character.
 *
 * Where a key ends is decided as readline's own decoder decides it, character by character, and
 * remembered across reads: the rest of a sequence that a read cut in two still goes to readline.
 */
import type { TerminalInputEvent } from "./paste-decoder.js";

const ESC = "\u001b";
/** Keys readline acts on: C0 controls (Enter, Tab, Backspace, Ctrl-A, ESC…), DEL, C1 controls. */
const CONTROL = /^\p{Cc}$/u;

export type PromptInputEvent =
  | TerminalInputEvent
  /** Plain text, no control character in it: inserted at the cursor as it stands. */
  | { readonly kind: "text"; readonly text: string };

export class TypedText {
  /** Told each character of a key in turn; says whether it ends the key. */
  readonly #keyEnds = keyEnds();
  /** A key was begun (an ESC…) and not yet ended: its next characters are the key's too. */
  #inKey = false;

  constructor() {
    this.#keyEnds.next("");
  }

  /** Each `keys` event cut into keys and text, in order; other events pass as they are. */
  split(events: readonly TerminalInputEvent[]): PromptInputEvent[] {
    return events.flatMap((event) => (event.kind === "keys" ? this.#cut(event.text) : [event]));
  }

  #cut(text: string): PromptInputEvent[] {
    const events: PromptInputEvent[] = [];
    let run = "";
    let runIsText = false;
    const endRun = (): void => {
      if (run !== "")
        events.push(runIsText ? { kind: "text", text: run } : { kind: "keys", text: run });
      run = "";
    };
    for (const char of text) {
      const isKey = this.#inKey || CONTROL.test(char);
      if (isKey) this.#inKey = !this.#keyEnds.next(char).value;
      if (run !== "" && isKey === runIsText) endRun();
      runIsText = !isKey;
      run += char;
    }
    endRun();
    return events;
  }
}

/**
 * Readline's `emitKeys` grammar (Node 20), told one character at a time: `true` when that
 * character ends a key. ESC (or ESC ESC) and one more character is a key; after `ESC O`, an
 * optional digit and a character; after `ESC [`, an optional `[`, up to three digits, an optional
 * `;` with a digit, and a final character.
 */
function* keyEnds(): Generator<boolean, never, string> {
  let char = yield true;
  for (;;) {
    if (char === ESC) {
      char = yield false;
      if (char === ESC) char = yield false;
      if (char === "O") {
        char = yield false;
        if (isDigit(char)) yield false;
      } else if (char === "[") {
        char = yield false;
        if (char === "[") char = yield false;
        for (let digits = 0; digits < 3 && isDigit(char); digits += 1) char = yield false;
        if (char === ";") {
          char = yield false;
          if (isDigit(char)) yield false;
        }
      }
    }
    char = yield true;
  }
}

function isDigit(char: string): boolean {
  return char >= "0" && char <= "9";
}
