/**
 * What the model client's rehearsal (bootstrap/model/rehearse-replies.ts) is answered with, as a
 * chat-completions server sends it: a whole JSON reply with a tool call, then a streamed one
 * (text, the same call, usage, `[DONE]`), each a raw HTTP/1.1 reply that keeps the connection.
 */
import type { AssistantMessage, Message } from "../../core/ports/messages.js";
import { keptAliveReply } from "./in-memory-agent.js";

/** The rehearsal's model name and base URL: nothing is looked up, nothing is sent. */
export const REHEARSAL_MODEL = "in-memory";
export const REHEARSAL_BASE_URL = "http://in-memory.invalid/v1";

const TOOL_CALL = {
  id: "call_0",
  type: "function",
  function: { name: "read_file", arguments: '{"path":"a"}' },
};
const USAGE = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };

function wholeReply(): string {
  return JSON.stringify({
    id: REHEARSAL_MODEL,
    object: "chat.completion",
    created: 0,
    model: REHEARSAL_MODEL,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: null, tool_calls: [TOOL_CALL] },
        finish_reason: "tool_calls",
      },
    ],
    usage: USAGE,
  });
}

function streamedReply(): string {
  const chunk = (choice: Record<string, unknown>, usage?: unknown): string =>
    `data: ${JSON.stringify({
      id: REHEARSAL_MODEL,
      object: "chat.completion.chunk",
      created: 0,
      model: REHEARSAL_MODEL,
      choices: [{ index: 0, ...choice }],
      ...(usage === undefined ? {} : { usage }),
    })}\n\n`;
  return (
    chunk({ delta: { role: "assistant", content: "." }, finish_reason: null }) +
    chunk({ delta: { tool_calls: [{ index: 0, ...TOOL_CALL }] }, finish_reason: null }) +
    chunk({ delta: {}, finish_reason: "tool_calls" }, USAGE) +
    "data: [DONE]\n\n"
  );
}

/** The two replies, in the order the rehearsal's requests are answered. */
export function rehearsalReplies(): string[] {
  return [
    keptAliveReply("application/json", wholeReply()),
    keptAliveReply("text/event-stream", streamedReply()),
  ];
}

/** The rehearsal's first request: one user message. */
export const REHEARSAL_QUESTION: readonly Message[] = [{ role: "user", content: "." }];

/** Its second: the first reply's calls answered, as a run's next request carries them. */
export function rehearsalAnswer(reply: AssistantMessage): Message[] {
  const answers = reply.toolCalls.map((call) => ({
    role: "tool" as const,
    toolCallId: call.id,
    content: "1\t.",
  }));
  return [...REHEARSAL_QUESTION, reply, ...answers];
}
