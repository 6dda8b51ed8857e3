/**
 * The separate request that writes a compaction's summary. Its text says it is a summary request,
 * so a recording or a server log shows what it was; it offers no tools. What it summarizes is
 * bounded: each old tool result is cut (or becomes its pointer), and the whole transcript is cut
 * from the front to fit `maxTokens`, so the summary request itself fits the window.
 */
import type { Message } from "../ports/messages.js";
import type { ModelClient } from "../ports/model.js";
import { estimateTextTokens } from "./context-budget.js";
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

/** The older messages as plain text, newest kept when it must be cut. */
export function transcript(older: readonly Message[], maxTokens: number): string {
  const lines = older.map(describe);
  const kept: string[] = [];
  let tokens = 0;
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const line = lines[index] ?? "";
    const size = estimateTextTokens(line);
    if (tokens + size > maxTokens) {
      kept.unshift("[earlier messages left out: too long to summarize at once]");
      break;
    }
    tokens += size;
    kept.unshift(line);
  }
  return kept.join("\n\n");
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
