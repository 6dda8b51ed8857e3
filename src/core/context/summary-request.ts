/**
 * The separate request that writes a compaction's summary. Its text says it is a summary request,
 * so a recording or a server log shows what it was; it offers no tools. What it summarizes is
 * bounded: each old tool result is cut (or becomes its pointer), and the messages too long to fit
 * `maxTokens` together are shortened head and tail, never left out, so the summary sees every one
 * and the summary request itself fits the window.
 */
import type { Message } from "../ports/messages.js";
import type { ModelClient } from "../ports/model.js";
import { LARGE_RESULT_CHARS, resultPointer } from "./compaction.js";

export const SUMMARY_SYSTEM_PROMPT = [
  "This is a summary request from the agent harness, not a task: do not call tools.",
  "Summarize the transcript below for the agent that will continue the work: what was asked,",
  "what was done (files read and changed, commands run, their results), what was decided, what",
  "failed, and what remains to do. Keep file paths, names and error messages exact. Be concise.",
].join("\n");

/** Asks the model for a summary of `older`; the empty string when it wrote nothing. */
export async function requestSummary(
  model: ModelClient,
  older: readonly Message[],
  maxTokens: number,
  signal: AbortSignal | undefined,
): Promise<string> {
  const reply = await model.complete({
    messages: [
      { role: "system", content: SUMMARY_SYSTEM_PROMPT },
      {
        role: "user",
        content: `Summary request. The transcript to summarize:\n\n${transcript(older, maxTokens)}`,
      },
    ],
    tools: [],
    purpose: "summary",
    ...(signal === undefined ? {} : { signal }),
  });
  return (reply.message.content ?? "").trim();
}

/**
 * The older messages as plain text, every one of them: when they do not all fit `maxTokens`, the
 * longest are shortened to their head and tail (an equal share each, the short ones kept whole),
 * so no message is left out and none crowds out the others.
 */
export function transcript(older: readonly Message[], maxTokens: number): string {
  const lines = older.map(describe);
  const room = maxTokens * CHARS_PER_TOKEN - SEPARATOR.length * Math.max(0, lines.length - 1);
  const share = fairShare(
    lines.map((line) => line.length),
    room,
  );
  return lines.map((line) => headAndTail(line, share)).join(SEPARATOR);
}

const SEPARATOR = "\n\n";
const CHARS_PER_TOKEN = 4;
/** However many messages there are, each keeps at least this much of its head and tail. */
const MIN_SHARE = 240;

/** The length every line longer than it is cut to, so that all of them fit `room`. */
function fairShare(lengths: readonly number[], room: number): number {
  const sorted = [...lengths].sort((a, b) => a - b);
  let left = room;
  for (let index = 0; index < sorted.length; index += 1) {
    const share = Math.floor(left / (sorted.length - index));
    const length = sorted[index] ?? 0;
    if (length > share) return Math.max(MIN_SHARE, share);
    left -= length;
  }
  return Number.POSITIVE_INFINITY;
}

function headAndTail(line: string, share: number): string {
  if (line.length <= share) return line;
  const marker = (left: number): string => ` [… ${String(left)} characters left out …] `;
  const keep = Math.max(0, share - marker(line.length).length);
  const head = Math.ceil(keep / 2);
  const tail = keep - head;
  return `${line.slice(0, head)}${marker(line.length - keep)}${line.slice(line.length - tail)}`;
}

function describe(message: Message): string {
  switch (message.role) {
    case "system":
      return `SYSTEM: ${message.content}`;
    case "user":
      return `USER: ${message.content}`;
    case "assistant": {
      const calls = message.toolCalls.map((call) => `CALL ${call.name} ${call.arguments}`);
      return ["ASSISTANT:", message.content ?? "", ...calls]
        .filter((part) => part !== "")
        .join(" ");
    }
    case "tool":
      return `RESULT: ${
        message.content.length > LARGE_RESULT_CHARS
          ? `${message.content.slice(0, 512)}… ${resultPointer(message)}`
          : message.content
      }`;
  }
}
