/**
 * How much of a tool call's arguments the harness will take. Everything the model sends is kept in
 * the run journal (its reply, then the validated arguments), and a journal resume cannot read is no
 * journal: without a cap, one hostile 60 MiB argument would stop the run at its journal's limit.
 *
 * 8 MiB: room for the largest file a tool writes (4 MiB, `WRITE_LIMIT_BYTES`) with every byte
 * escaped once in JSON, so a write just over that limit still gets its own `file_too_large`.
 */
import { toolError, type ToolResult } from "./tool-result.js";

export const MAX_ARGUMENTS_BYTES = 8 * 1024 * 1024;

/**
 * UTF-8 bytes of `text`, counted without encoding it (a hostile argument can be 60 MiB). A lone
 * surrogate has no UTF-8 form: the journal writes it as an escape, `\udXXX`, and `call_prepared`
 * escapes the canonical arguments once more (`\\udXXX`), so it counts as 7 bytes, not 3.
 */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (isHighSurrogate(unit) && isLowSurrogate(text.charCodeAt(index + 1))) {
      bytes += 4;
      index += 1;
    } else if (isHighSurrogate(unit) || isLowSurrogate(unit)) bytes += LONE_SURROGATE_BYTES;
    else bytes += 3;
  }
  return bytes;
}

const LONE_SURROGATE_BYTES = 7;

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit < 0xdc00;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit < 0xe000;
}

/** Refused by size alone, before any parsing: nothing of the call ran. */
export function argumentsTooLarge(toolName: string, bytes: number): ToolResult {
  return toolError(
    "arguments_too_large",
    `Arguments for ${shortName(toolName)} are ${String(bytes)} bytes, over the ` +
      `${String(MAX_ARGUMENTS_BYTES)}-byte limit; nothing was run. Split the work into smaller calls`,
  );
}

/** Each call fits, but the reply as a whole is more than the run can keep. */
export function replyTooLarge(toolName: string, bytes: number, room: number): ToolResult {
  return toolError(
    "arguments_too_large",
    `Arguments for ${shortName(toolName)} are ${String(bytes)} bytes, over the ${String(room)} ` +
      "bytes left for this reply's tool calls; nothing was run. Send fewer or smaller calls",
  );
}

/** A model-chosen name is echoed, but never at a length that would itself flood the journal. */
function shortName(name: string): string {
  return name.length <= 64 ? name : `${name.slice(0, 64)}…`;
}
