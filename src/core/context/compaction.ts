/**
 * What a compaction keeps and what it hands to the summary. Kept verbatim: the system message,
 * the task (the first user line), the latest user line, and the most recent units that fit in
 * `keepTokens` (at least the last one). Everything between is summarized. Large tool results in
 * the kept units, except the newest ones, become a one-line pointer: the model can read the
 * saved output again (or run the call again) when it needs it.
 */
import type { Message, ToolMessage, UserMessage } from "../ports/messages.js";
import { estimateMessageTokens, estimateMessagesTokens } from "./context-budget.js";
import { historyUnits, type HistoryUnit } from "./history-units.js";

/** A tool result longer than this (in characters) is replaced by a pointer once it is old. */
export const LARGE_RESULT_CHARS = 2_048;
/** The newest units whose tool results stay whole, however large. */
const UNTOUCHED_UNITS = 2;

export interface CompactionPlan {
  /** System message and task, then (after the summary) the latest user line and the recent units. */
  readonly head: readonly Message[];
  readonly older: readonly Message[];
  readonly tail: readonly Message[];
}

/** `undefined` when there is nothing older to summarize. */
export function planCompaction(
  history: readonly Message[],
  keepTokens: number,
): CompactionPlan | undefined {
  const system = history[0]?.role === "system" ? [history[0]] : [];
  const units = historyUnits(history.slice(system.length));
  const task = units[0];
  if (task?.messages[0]?.role !== "user") return undefined;
  const rest = units.slice(1);
  let kept = 0;
  let tokens = 0;
  while (kept < rest.length) {
    const unit = rest[rest.length - 1 - kept];
    if (unit === undefined) break;
    const size = estimateMessagesTokens(unit.messages);
    if (kept > 0 && tokens + size > keepTokens) break;
    tokens += size;
    kept += 1;
  }
  const olderUnits = rest.slice(0, rest.length - kept);
  if (olderUnits.length === 0) return undefined;
  const tailUnits = rest.slice(rest.length - kept);
  // The line the current turn answers stays, unless a later one is kept anyway.
  const latestUser = tailUnits.some((unit) => unit.messages[0]?.role === "user")
    ? undefined
    : lastUserLine(olderUnits);
  return {
    head: [...system, ...task.messages],
    older: olderUnits.flatMap((unit) => unit.messages),
    tail: [
      ...(latestUser === undefined ? [] : [latestUser]),
      ...withPointers(tailUnits).flatMap((unit) => unit.messages),
    ],
  };
}

/** The compacted history: head, the summary as a user message that says what it is, tail. */
export function compactedHistory(plan: CompactionPlan, summary: string): Message[] {
  const note: UserMessage = {
    role: "user",
    content: `${SUMMARY_HEADING}\n${summary.trim()}`,
  };
  return [...plan.head, note, ...plan.tail];
}

export const SUMMARY_HEADING =
  "[Summary of the earlier part of this conversation, written when the context was compacted. The task above and the messages below are verbatim.]";

export function isSummaryNote(message: Message): boolean {
  return message.role === "user" && message.content.startsWith(SUMMARY_HEADING);
}

/** The one line a large old tool result becomes. */
export function resultPointer(message: ToolMessage): string {
  const saved = SAVED_OUTPUT.exec(message.content)?.[0];
  const where =
    saved === undefined
      ? "run the call again if you need it"
      : `the whole output is saved at ${saved}`;
  return `[tool result of ${String(message.content.length)} characters removed to save context; ${where}]`;
}

const SAVED_OUTPUT = /\.agent\/outputs\/[A-Za-z0-9._-]+\.log/;

function lastUserLine(units: readonly HistoryUnit[]): UserMessage | undefined {
  for (let index = units.length - 1; index >= 0; index -= 1) {
    const first = units[index]?.messages[0];
    if (first?.role === "user" && !isSummaryNote(first)) return first;
  }
  return undefined;
}

function withPointers(units: readonly HistoryUnit[]): HistoryUnit[] {
  return units.map((unit, index) =>
    index >= units.length - UNTOUCHED_UNITS
      ? unit
      : { messages: unit.messages.map((message) => pointerIfLarge(message)) },
  );
}

function pointerIfLarge(message: Message): Message {
  if (message.role !== "tool" || message.content.length <= LARGE_RESULT_CHARS) return message;
  return { ...message, content: resultPointer(message) };
}

/** Tokens a plan keeps verbatim (head and tail), for deciding whether compaction can help. */
export function keptTokens(plan: CompactionPlan): number {
  return [...plan.head, ...plan.tail].reduce((sum, m) => sum + estimateMessageTokens(m), 0);
}
