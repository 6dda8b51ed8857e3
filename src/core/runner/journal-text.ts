/**
 * Text measured and cut by what it takes in a journal line. Model text and tool results are
 * journaled as JSON strings, so the bytes that count are their escaped form, not their length.
 */
import { utf8Bytes } from "../tools/argument-limits.js";

/**
 * What `text` takes as a JSON string in a journal line: escapes counted, quotes left out. A lone
 * surrogate is counted as `utf8Bytes` counts it, as the escape the journal writes for it.
 */
export function jsonBytes(text: string): number {
  let escapes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit === 0x22 || unit === 0x5c) escapes += 1;
    else if (unit < 0x20) escapes += 5;
  }
  return utf8Bytes(text) + escapes;
}

/** `text` whole when it fits in `limit` journal bytes; else its start and a note of what is left out. */
export function cutText(text: string, limit: number): string {
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
