/**
 * A history cut into the pieces compaction may keep or drop whole: a user line, an answer, or an
 * assistant message with its tool calls together with their results. A piece is never split, so
 * whatever is kept stays paired (every call with its result, every result with its call).
 */
import type { Message } from "../ports/messages.js";

export interface HistoryUnit {
  readonly messages: readonly Message[];
}

/** `messages` without a leading system message, in units; the tool results follow their call. */
export function historyUnits(messages: readonly Message[]): HistoryUnit[] {
  const units: Message[][] = [];
  for (const message of messages) {
    const current = units.at(-1);
    if (message.role === "tool" && current !== undefined) current.push(message);
    else units.push([message]);
  }
  return units.map((unit) => ({ messages: unit }));
}
