/**
 * Typed keys cut after each Enter, so a read holding several lines (fast typing, type-ahead, a
 * paste in a terminal without bracketed paste) can be given to the prompt one line at a time: the
 * lines after the one that sends a message are kept for the next message instead of being lost.
 */
import type { TerminalInputEvent } from "./paste-decoder.js";

/** CR LF is one Enter (readline takes it so); a lone CR or LF is one too. */
const AFTER_LINE_END = /(?<=\r\n|\r(?!\n)|\n)/u;

export function splitAtLineEnds(events: readonly TerminalInputEvent[]): TerminalInputEvent[] {
  return events.flatMap((event): TerminalInputEvent[] =>
    event.kind === "keys"
      ? event.text
          .split(AFTER_LINE_END)
          .filter((text) => text !== "")
          .map((text) => ({ kind: "keys", text }))
      : [event],
  );
}
