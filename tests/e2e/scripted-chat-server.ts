/**
 * One ChatCompletionsServer shared by every test in a file, with a fresh script per test: `script()`
 * replaces whatever replies an earlier (perhaps failed) test left unserved, so one failure cannot
 * shift the replies of the next test.
 */
import { z } from "zod";
import {
  ChatCompletionsServer,
  chatErrorReply,
  type HttpReply,
  type NeverAnswer,
  type RecordedRequest,
  type ScriptedReply,
} from "../support/chat-completions-server.js";

const toolCallSchema = z.object({
  id: z.string(),
  type: z.literal("function"),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

const messageSchema = z.discriminatedUnion("role", [
  z.object({ role: z.literal("system"), content: z.string() }),
  z.object({ role: z.literal("user"), content: z.string() }),
  z.object({
    role: z.literal("assistant"),
    content: z.string().nullable().optional(),
    tool_calls: z.array(toolCallSchema).optional(),
  }),
  z.object({ role: z.literal("tool"), tool_call_id: z.string(), content: z.string() }),
]);

const chatRequestSchema = z.object({
  model: z.string(),
  messages: z.array(messageSchema),
  tools: z
    .array(
      z.object({
        type: z.literal("function"),
        function: z.object({
          name: z.string(),
          description: z.string(),
          parameters: z.record(z.string(), z.unknown()),
        }),
      }),
    )
    .optional(),
});

type ReplyOutcome = HttpReply | NeverAnswer;

export type ChatRequest = z.infer<typeof chatRequestSchema>;
export type ChatMessage = z.infer<typeof messageSchema>;

export class ScriptedChatServer {
  readonly #server: ChatCompletionsServer;
  #replies: ScriptedReply[] = [];
  #firstRequest = 0;

  private constructor(server: ChatCompletionsServer) {
    this.#server = server;
  }

  static async start(): Promise<ScriptedChatServer> {
    const server = await ChatCompletionsServer.start();
    const scripted = new ScriptedChatServer(server);
    // The inner queue always holds one delegate, which puts the next one back when it is used.
    const delegate = async (request: RecordedRequest): Promise<ReplyOutcome> => {
      server.enqueue(delegate);
      return resolveOutcome(scripted.#replies.shift(), request);
    };
    server.enqueue(delegate);
    return scripted;
  }

  /** `http://127.0.0.1:PORT/v1`, for OPENAI_BASE_URL. */
  get baseURL(): string {
    return this.#server.baseURL;
  }

  /** Starts a new conversation with these replies, in order. */
  script(...replies: ScriptedReply[]): void {
    this.#replies = [...replies];
    this.#firstRequest = this.#server.requests.length;
  }

  get pendingReplies(): number {
    return this.#replies.length;
  }

  /** Every HTTP request since `script()`, as received. */
  get rawRequests(): RecordedRequest[] {
    return this.#server.requests.slice(this.#firstRequest);
  }

  /** The chat requests since `script()`, parsed; a request of another shape fails the test. */
  get requests(): ChatRequest[] {
    return this.rawRequests.map((request) => chatRequestSchema.parse(request.body));
  }

  async waitForRequests(count: number): Promise<void> {
    await this.#server.waitForRequests(this.#firstRequest + count);
  }

  close(): Promise<void> {
    return this.#server.close();
  }
}

async function resolveOutcome(
  next: ScriptedReply | undefined,
  request: RecordedRequest,
): Promise<ReplyOutcome> {
  if (next === undefined) {
    return chatErrorReply(500, "ScriptedChatServer has no scripted reply left", {
      headers: { "x-should-retry": "false" },
    });
  }
  return typeof next === "function" ? next(request) : next;
}

/** The content of each tool message in `request`, by the id of the call it answers. */
export function toolResults(request: ChatRequest | undefined): Record<string, string> {
  const results: Record<string, string> = {};
  for (const message of request?.messages ?? []) {
    if (message.role === "tool") results[message.tool_call_id] = message.content;
  }
  return results;
}

export function toolNames(request: ChatRequest | undefined): string[] {
  return (request?.tools ?? []).map((tool) => tool.function.name);
}

/**
 * What breaks the chat-completions pairing rule in `messages`: every assistant message with tool
 * calls must be followed at once by one tool message per call, answering the ids in order.
 */
export function pairingProblems(messages: readonly ChatMessage[]): string[] {
  const problems: string[] = [];
  for (const [index, message] of messages.entries()) {
    if (message.role === "tool") {
      const previous = messages.slice(0, index).findLast((m) => m.role !== "tool");
      if (previous?.role !== "assistant" || previous.tool_calls === undefined) {
        problems.push(`message ${index}: tool message without a preceding tool call`);
      }
    }
    if (message.role !== "assistant" || message.tool_calls === undefined) continue;
    const expected = message.tool_calls.map((call) => call.id);
    const answered = messages
      .slice(index + 1, index + 1 + expected.length)
      .map((m) => (m.role === "tool" ? m.tool_call_id : `(${m.role})`));
    if (JSON.stringify(answered) !== JSON.stringify(expected)) {
      problems.push(
        `message ${index}: calls ${JSON.stringify(expected)} answered by ${JSON.stringify(answered)}`,
      );
    }
  }
  return problems;
}
