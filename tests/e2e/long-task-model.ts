/**
 * A scripted model for long tasks (issue 26): it asks for `calls` reads of `files` in turn, one
 * call per reply, then answers. Like a provider with a small window it refuses, in OpenAI's error
 * shape, any request larger than `windowTokens` (counted as the request body's length / 4, and
 * reported back as `usage`). It answers a compaction's summary request with a short summary.
 */
import {
  chatErrorReply,
  chatTextReply,
  chatToolCallsReply,
  chatUsage,
  type HttpReply,
  type RecordedRequest,
} from "../support/chat-completions-server.js";

export const SUMMARY_PREFIX = "This is a summary request";

export interface LongTaskModel {
  readonly reply: (request: RecordedRequest) => HttpReply;
  /** Each request's size in tokens, and whether it was refused, in order. */
  readonly seen: {
    readonly tokens: number;
    readonly refused: boolean;
    readonly summary: boolean;
  }[];
  readonly callsAsked: () => number;
}

export function longTaskModel(options: {
  readonly calls: number;
  readonly files: readonly string[];
  readonly windowTokens: number;
}): LongTaskModel {
  const seen: LongTaskModel["seen"] = [];
  let asked = 0;
  const reply = (request: RecordedRequest): HttpReply => {
    const tokens = Math.ceil(request.rawBody.length / 4);
    const summary = isSummaryRequest(request.body);
    const refused = tokens > options.windowTokens;
    seen.push({ tokens, refused, summary });
    if (refused) {
      return chatErrorReply(
        400,
        `This model's maximum context length is ${String(options.windowTokens)} tokens. However, your messages resulted in ${String(tokens)} tokens. Please reduce the length of the messages.`,
        { code: "context_length_exceeded" },
      );
    }
    const usage = chatUsage(tokens, 20);
    if (summary)
      return chatTextReply(`Read ${String(asked)} files so far; all were fine.`, { usage });
    if (asked >= options.calls) return chatTextReply(`Read all ${String(asked)} files.`, { usage });
    asked += 1;
    const path = options.files[asked % options.files.length] ?? "";
    return chatToolCallsReply(
      [{ id: `call_${String(asked)}`, name: "read_file", arguments: { path } }],
      {
        usage,
      },
    );
  };
  return { reply, seen, callsAsked: () => asked };
}

export function isSummaryRequest(body: unknown): boolean {
  const messages = (body as { messages?: { role?: string; content?: unknown }[] }).messages;
  const first = messages?.[0];
  return (
    first?.role === "system" &&
    typeof first.content === "string" &&
    first.content.startsWith(SUMMARY_PREFIX)
  );
}

/** `count` files of about 4 KiB each (64 lines of 64 characters). */
export function fourKibText(seed: number): string {
  const line = `${String(seed).padStart(4, "0")} ${"abcdefghij".repeat(6)}`.slice(0, 63);
  return `${Array.from({ length: 64 }, () => line).join("\n")}\n`;
}
