/**
 * What the results of one reply's calls may take of the run journal. A result is journaled whole
 * in its execution_finished, and a tool can return a lot (a read of 256 KiB, three hundred times
 * over): without a bound, the results of one reply could fill the journal after its calls ran,
 * and the run would stop with a call started and never finished.
 *
 * So each result is cut, before the model reads it or the journal keeps it (the same text, so a
 * resumed run replays the same history), to fit what the journal has left less the reserve of
 * every call still to come; and together a reply's results take at most half of what was left
 * after the reply, so the next turn and the run's end still have room.
 */
import type { ToolCall } from "../ports/messages.js";
import type { ToolOutcome } from "../tools/tool-outcome.js";
import { utf8Bytes } from "../tools/argument-limits.js";
import { cutText, jsonBytes } from "./journal-text.js";

/** A journal line's own fields around the record (`v`, `time`, the newline), generously. */
const LINE_ENVELOPE_BYTES = 256;
/**
 * A result this short is never cut for the reply's share (a refusal, an error, a short answer):
 * each call's reserve (bounded-reply.ts) already holds this much for it.
 */
const SHORT_RESULT_BYTES = 1024;

export class ResultRoom {
  /** Bytes this reply's results may still take together. */
  #share: number;
  /** By call id: what each call not yet finished needs of the journal, its result apart. */
  readonly #reserves: Map<string, number>;

  /** `spaceLeft`: the journal's, once the reply is journaled; `reserves`: from bounded-reply.ts. */
  constructor(spaceLeft: number, reserves: ReadonlyMap<string, number>) {
    this.#reserves = new Map(reserves);
    let reserved = 0;
    for (const bytes of reserves.values()) reserved += bytes;
    this.#share = Math.max(0, Math.floor((spaceLeft - reserved) / 2));
  }

  /**
   * `content` as the model reads it and the journal keeps it: whole when it fits, else its start
   * and a note of how much was left out. `spaceLeft`: the journal's now; `extra`: journal bytes
   * the call's execution_finished adds to the text beyond its outcome (an outcome note).
   */
  fit(call: ToolCall, outcome: ToolOutcome, content: string, spaceLeft: number, extra = 0): string {
    this.#reserves.delete(call.id);
    let toCome = 0;
    for (const bytes of this.#reserves.values()) toCome += bytes;
    const frame = finishedRecordBytes(call, outcome) + extra;
    const limit = Math.max(
      0,
      Math.min(Math.max(this.#share, SHORT_RESULT_BYTES), spaceLeft - toCome - frame),
    );
    const fitted = cutText(content, limit);
    this.#share = Math.max(0, this.#share - jsonBytes(fitted));
    return fitted;
  }
}

/** The call's execution_finished record with an empty result, as the journal writes it. */
function finishedRecordBytes(call: ToolCall, outcome: ToolOutcome): number {
  const record = { type: "execution_finished", callId: call.id, outcome, content: "" };
  return utf8Bytes(JSON.stringify(record)) + LINE_ENVELOPE_BYTES;
}
