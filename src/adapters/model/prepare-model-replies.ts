/**
 * Node compiles its own modules' functions when they are first called, and no code cache of ours
 * can hold them; our own code, though cached, runs slower the first time (its inline caches are
 * empty). The model's first reply ran all of that in the first tool call's turn: node's HTTP
 * client reading a reply and keeping the connection for the next request, the SDK reading the
 * response, our stream reader and the reply's checks. This runs that path while the model thinks,
 * through the same client class with a transport in memory (in-memory-agent.ts): a whole JSON
 * reply with a tool call, then the request that answers it and a streamed reply, on the
 * connection the first left open.
 * Nothing leaves the process and nothing is kept: the client, its body and the replies are
 * garbage once it ends.
 */
import type { Message } from "../../core/ports/messages.js";
import { InMemoryAgent, keptAliveReply } from "./in-memory-agent.js";
import { nodeHttpFetch } from "./node-http-fetch.js";
import { OpenAIChatModelClient } from "./openai-chat.js";

const MODEL = "in-memory";
/** Short: should node's client ever wait here, its timer must not keep a finished run alive. */
const TIMEOUT_MS = 2_000;

const TOOL_CALL = {
  id: "call_0",
  type: "function",
  function: { name: "read_file", arguments: '{"path":"a"}' },
};
const USAGE = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };

function wholeReply(): string {
  return JSON.stringify({
    id: MODEL,
    object: "chat.completion",
    created: 0,
    model: MODEL,
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
      id: MODEL,
      object: "chat.completion.chunk",
      created: 0,
      model: MODEL,
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

/**
 * Runs the two exchanges; the promise settles when they have ended (callers need not wait). It
 * never rejects: a node or SDK that asks more of a connection than this one offers only leaves
 * the first reply to pay as before.
 */
export async function prepareModelReplies(): Promise<void> {
  const agent = new InMemoryAgent([
    keptAliveReply("application/json", wholeReply()),
    keptAliveReply("text/event-stream", streamedReply()),
  ]);
  try {
    const client = new OpenAIChatModelClient({
      apiKey: MODEL,
      model: MODEL,
      baseURL: "http://in-memory.invalid/v1",
      timeoutMs: TIMEOUT_MS,
      maxRetries: 0,
      fetch: (input, init) => nodeHttpFetch(input, { ...init, agent }),
    });
    // A turn as a run has one: the reply's call answered in the next request's history.
    const asked: Message[] = [{ role: "user", content: "." }];
    const reply = await client.complete({ messages: asked, tools: [] });
    const answered: Message[] = [
      ...asked,
      reply.message,
      ...reply.message.toolCalls.map((call) => ({
        role: "tool" as const,
        toolCallId: call.id,
        content: "1\t.",
      })),
    ];
    await client.complete({ messages: answered, tools: [] });
  } catch {
    // Nothing to report: the first real reply meets whatever this one did.
  } finally {
    agent.destroy();
  }
}
