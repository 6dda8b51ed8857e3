import type { Message } from "../../src/core/ports/messages.js";

/** What the model was told about each call, in order: the call id and the whole result text. */
export function toolMessages(history: readonly Message[]): { id: string; content: string }[] {
  return history.flatMap((message) =>
    message.role === "tool" ? [{ id: message.toolCallId, content: message.content }] : [],
  );
}
