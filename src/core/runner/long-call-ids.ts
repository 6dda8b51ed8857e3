/**
 * Call ids and tool names no provider would send, kept short before anything checks or keeps
 * them. Each id is written into several journal records, so one of a megabyte would fill the
 * journal; but the replacement must still tell ids apart exactly as the originals did, or two
 * calls would share an id and resume would pair one's result with the other (a call still
 * waiting for approval would read as done).
 *
 * So a long id is replaced by a SHA-256 digest of it, never by a short hash a model can collide:
 * two different long ids stay different, and a long id repeated in a later reply becomes the same
 * short one, which the fresh-id check (model-reply-checks.ts) replaces like any repeated id.
 */
import { createHash } from "node:crypto";
import type { ToolCall } from "../ports/messages.js";

/** Longer than any id a provider makes; a longer one is replaced, in the reply and its result alike. */
export const MAX_CALL_ID_CHARS = 256;
/** A tool's name is at most 64 characters (tool-registry.ts); a longer one is cut and unknown. */
const MAX_TOOL_NAME_CHARS = 64;

/** An id as the harness keeps it: itself when short, else its digest. */
export function shortCallId(id: string): string {
  return id.length <= MAX_CALL_ID_CHARS ? id : longIdDigest(id);
}

/** The call with its id and name as the harness keeps them; unchanged when both are short. */
export function withShortIdAndName(call: ToolCall): ToolCall {
  const id = shortCallId(call.id);
  // Cut, not replaced: the name stays unknown to the registry, and the model reads which it sent.
  const name =
    call.name.length <= MAX_TOOL_NAME_CHARS
      ? call.name
      : `${call.name.slice(0, MAX_TOOL_NAME_CHARS)}…`;
  return id === call.id && name === call.name ? call : { ...call, id, name };
}

/**
 * `call_long_` and 64 hex digits. The digest is over the id's UTF-16 code units, not its UTF-8:
 * encoding to UTF-8 would turn every lone surrogate into U+FFFD, and so make ids collide.
 */
function longIdDigest(id: string): string {
  return `call_long_${createHash("sha256").update(id, "utf16le").digest("hex")}`;
}
