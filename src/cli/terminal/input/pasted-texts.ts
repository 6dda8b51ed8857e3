/**
 * A paste that spans lines (or holds a control character) is shown in the input line as a short
 * placeholder, `[pasted 3 lines]`, never as its raw text: nothing pasted can draw on the terminal,
 * and the line stays editable. When the line is sent, each placeholder becomes its text again.
 * Kept for the session, so a line recalled with Up still carries its paste.
 */
export class PastedTexts {
  readonly #texts = new Map<string, string>();

  /** What to show in the line for this paste; the same text pasted twice shares one. */
  placeholder(text: string): string {
    const lines = text.split("\n").length;
    const base = `[pasted ${String(lines)} ${lines === 1 ? "line" : "lines"}`;
    for (let number = 1; ; number += 1) {
      const shown = number === 1 ? `${base}]` : `${base} #${String(number)}]`;
      const known = this.#texts.get(shown);
      if (known === undefined) this.#texts.set(shown, text);
      if (known === undefined || known === text) return shown;
    }
  }

  /** The line as the model receives it: every placeholder replaced by the text it stands for. */
  expand(line: string): string {
    if (this.#texts.size === 0) return line;
    // One pass: a pasted text that itself reads like a placeholder is left as it was pasted.
    const any = new RegExp([...this.#texts.keys()].map(escapeRegExp).join("|"), "g");
    return line.replace(any, (shown) => this.#texts.get(shown) ?? shown);
  }

  /** Whether the line shows a paste (such a line is a message, never a slash command). */
  holdsPaste(line: string): boolean {
    for (const shown of this.#texts.keys()) if (line.includes(shown)) return true;
    return false;
  }
}

/** Text that must not go into the input line as typed: more than one line, or a control character. */
export function needsPlaceholder(text: string): boolean {
  return /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u.test(text);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
