/**
 * Splits what the terminal sends while the person types into keys and pastes. With bracketed
 * paste on (`ESC[?2004h`), the terminal wraps pasted text in `ESC[200~` … `ESC[201~`: that text is
 * one piece of the message, newlines and all, and none of it is a key (a pasted `ESC[2J` or Ctrl-C
 * is text, never acted on). The markers may arrive split across reads; a paste past the limit is
 * counted, not kept, so a huge paste costs no memory and never stalls the prompt.
 */

export const PASTE_START = "\u001b[200~";
export const PASTE_END = "\u001b[201~";

/** Alt-Enter (or Esc then Enter): a newline inside the message instead of sending it. */
// eslint-disable-next-line no-control-regex -- ESC is exactly what this looks for
const ALT_ENTER = /\u001b[\r\n]/;

export type TerminalInputEvent =
  | { readonly kind: "keys"; readonly text: string }
  | { readonly kind: "newline" }
  | { readonly kind: "paste"; readonly text: string }
  | { readonly kind: "paste-refused"; readonly characters: number };

/** A quarter of a megabyte of text: far more than a stack trace, less than would flood a context. */
export const DEFAULT_PASTE_LIMIT = 256 * 1024;

export class PasteDecoder {
  /** The most characters a paste may have. */
  readonly limit: number;
  #inPaste = false;
  /** The end of the last read that may be the start of a marker. */
  #held = "";
  #pasted: string[] = [];
  #pastedLength = 0;

  constructor(limit = DEFAULT_PASTE_LIMIT) {
    this.limit = limit;
  }

  feed(chunk: string): TerminalInputEvent[] {
    const events: TerminalInputEvent[] = [];
    let text = this.#held + chunk;
    this.#held = "";
    while (text !== "") {
      const marker = this.#inPaste ? PASTE_END : PASTE_START;
      const at = text.indexOf(marker);
      if (at === -1) {
        const held = markerPrefixAtEnd(text, marker, this.#inPaste ? 1 : 2);
        this.#take(text.slice(0, text.length - held.length), events);
        this.#held = held;
        break;
      }
      this.#take(text.slice(0, at), events);
      text = text.slice(at + marker.length);
      if (this.#inPaste) events.push(this.#endPaste());
      else this.#inPaste = true;
    }
    return events;
  }

  #take(text: string, events: TerminalInputEvent[]): void {
    if (text === "") return;
    if (this.#inPaste) {
      this.#pastedLength += text.length;
      if (this.#pastedLength <= this.limit) this.#pasted.push(text);
      return;
    }
    pushKeys(text, events);
  }

  #endPaste(): TerminalInputEvent {
    const characters = this.#pastedLength;
    const text = this.#pasted.join("");
    this.#inPaste = false;
    this.#pasted = [];
    this.#pastedLength = 0;
    if (characters > this.limit) return { kind: "paste-refused", characters };
    // Terminals send a pasted line break as CR; the message keeps it as the newline it was.
    return { kind: "paste", text: text.replace(/\r\n?/g, "\n") };
  }
}

function pushKeys(text: string, events: TerminalInputEvent[]): void {
  let rest = text;
  for (let match = ALT_ENTER.exec(rest); match !== null; match = ALT_ENTER.exec(rest)) {
    if (match.index > 0) events.push({ kind: "keys", text: rest.slice(0, match.index) });
    events.push({ kind: "newline" });
    rest = rest.slice(match.index + match[0].length);
  }
  if (rest !== "") events.push({ kind: "keys", text: rest });
}

/**
 * The longest end of `text` that begins `marker`, kept for the next read. Between keys at least
 * two characters: a lone ESC is the Escape key, which must not wait for the next keystroke.
 */
function markerPrefixAtEnd(text: string, marker: string, shortest: number): string {
  for (let length = Math.min(marker.length - 1, text.length); length >= shortest; length -= 1) {
    const end = text.slice(text.length - length);
    if (marker.startsWith(end)) return end;
  }
  return "";
}
