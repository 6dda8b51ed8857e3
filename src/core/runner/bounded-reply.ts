/**
 * A model reply cut down to what the run journal can keep, before it is journaled or kept in the
 * history. Everything the model sends is journaled (its reply, then each call's validated
 * arguments), and a record that would push the journal past what resume reads stops the run: so a
 * hostile reply (a 60 MiB argument, a flood of text, many calls at once) must be bounded here, not
 * left to stop the run there.
 *
 * A call over the bounds keeps its id and name but its arguments are replaced by a marker, and it
 * is refused with `arguments_too_large`: the history stays paired, and the model reads why.
 * Text over the bounds is cut, with a note saying how much was left out.
 */
import type { AssistantMessage, ToolCall } from "../ports/messages.js";
import {
  argumentsTooLarge,
  MAX_ARGUMENTS_BYTES,
  replyTooLarge,
  utf8Bytes,
} from "../tools/argument-limits.js";
import type { ToolResult } from "../tools/tool-result.js";

/** One reply's share of the journal at most: text plus each call's arguments, twice over. */
export const MAX_REPLY_BYTES = 24 * 1024 * 1024;
/**
 * More text than any answer a person reads, with room for a long generated file in the answer
 * (a 1 MiB answer is printed whole); the rest of a reply's text is left out.
 */
export const MAX_REPLY_TEXT_BYTES = 4 * 1024 * 1024;
/**
 * Longer than any id a provider makes; a longer one is replaced (in the reply and its result
 * alike, so they stay paired) by one naming its length and a hash of it.
 */
export const MAX_CALL_ID_CHARS = 256;
/** A tool's name is at most 64 characters (tool-registry.ts); a longer one is cut and unknown. */
const MAX_TOOL_NAME_CHARS = 64;

export interface BoundedReply {
  /** The reply as journaled and kept in the history. */
  readonly message: AssistantMessage;
  /** By call id: the calls refused for their size, with the result the model reads. */
  readonly refused: ReadonlyMap<string, ToolResult>;
}

/**
 * `room`: bytes the journal can still take. A reply gets at most half of it, the rest is kept for
 * the results and the records that close the run. A call's arguments count twice: the reply
 * holds them, and so does the call's `call_prepared` record.
 */
export function boundedReply(message: AssistantMessage, room: number): BoundedReply {
  let left = Math.max(0, Math.min(MAX_REPLY_BYTES, Math.floor(room / 2)));
  const content =
    message.content === null
      ? null
      : cutText(message.content, Math.min(MAX_REPLY_TEXT_BYTES, Math.floor(left / 2)));
  left -= content === null ? 0 : jsonBytes(content);
  const refused = new Map<string, ToolResult>();
  const toolCalls = message.toolCalls.map(shortIdAndName).map((call): ToolCall => {
    const bytes = utf8Bytes(call.arguments);
    const cost = 2 * jsonBytes(call.arguments);
    if (bytes <= MAX_ARGUMENTS_BYTES && cost <= left) {
      left -= cost;
      return call;
    }
    refused.set(
      call.id,
      bytes > MAX_ARGUMENTS_BYTES
        ? argumentsTooLarge(call.name, bytes)
        : replyTooLarge(call.name, bytes, Math.floor(left / 2)),
    );
    return { ...call, arguments: JSON.stringify({ omitted_bytes: bytes }) };
  });
  return { message: { ...message, content, toolCalls }, refused };
}

/**
 * An id or a name no tool could have, kept short: the name cut (so it stays unknown, and the
 * model reads which it sent), the id replaced by its length and a hash, unique in practice.
 */
function shortIdAndName(call: ToolCall): ToolCall {
  const id =
    call.id.length <= MAX_CALL_ID_CHARS
      ? call.id
      : `call_long_${String(call.id.length)}_${fnv1a(call.id)}`;
  const name =
    call.name.length <= MAX_TOOL_NAME_CHARS
      ? call.name
      : `${call.name.slice(0, MAX_TOOL_NAME_CHARS)}…`;
  return id === call.id && name === call.name ? call : { ...call, id, name };
}

/** FNV-1a, 32 bits, as hex: no crypto in the core, and this only tells long ids apart. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/** `text` whole when it fits in `limit` journal bytes; else its start and a note of what is left out. */
function cutText(text: string, limit: number): string {
  if (jsonBytes(text) <= limit) return text;
  const note = `\n[… ${String(utf8Bytes(text))} bytes in all; the rest was left out, over the limit the harness keeps]`;
  let end = 0;
  let bytes = jsonBytes(note);
  while (end < text.length) {
    const next = jsonBytes(text.slice(end, end + 1));
    if (bytes + next > limit) break;
    bytes += next;
    end += 1;
  }
  // Never end between the halves of a surrogate pair.
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last < 0xdc00) end -= 1;
  return `${text.slice(0, end)}${note}`;
}

/** What `text` takes as a JSON string in a journal line: escapes counted, quotes left out. */
function jsonBytes(text: string): number {
  let escapes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit === 0x22 || unit === 0x5c) escapes += 1;
    else if (unit < 0x20) escapes += 5;
  }
  return utf8Bytes(text) + escapes;
}
