import { z } from "zod";
import { builtOnce } from "../../core/common/built-once.js";
import type { Message } from "../../core/ports/messages.js";
import type { ModelReply, ModelToolSpec } from "../../core/ports/model.js";

/**
 * One line of a `--record` file: what the harness asked and what the model answered. The signal is
 * not data, and the API key never reaches a ModelClient's request, so neither can be written.
 */
export interface RecordedExchange {
  readonly request: {
    readonly messages: readonly Message[];
    readonly tools: readonly ModelToolSpec[];
  };
  readonly reply: ModelReply;
}

/** Strict everywhere: a hand-edited or foreign file fails at load, not halfway through a demo. */
function buildRecordedExchangeSchema() {
  const toolCallSchema = z.strictObject({
    id: z.string().min(1),
    name: z.string().min(1),
    arguments: z.string(),
  });

  const assistantSchema = z.strictObject({
    role: z.literal("assistant"),
    content: z.string().nullable(),
    toolCalls: z.array(toolCallSchema),
  });

  const messageSchema = z.discriminatedUnion("role", [
    z.strictObject({ role: z.literal("system"), content: z.string() }),
    z.strictObject({ role: z.literal("user"), content: z.string() }),
    assistantSchema,
    z.strictObject({ role: z.literal("tool"), toolCallId: z.string().min(1), content: z.string() }),
  ]);

  const tokenCount = z.number().int().nonnegative();

  return z.strictObject({
    request: z.strictObject({
      messages: z.array(messageSchema),
      tools: z.array(
        z.strictObject({
          name: z.string().min(1),
          description: z.string(),
          parameters: z.record(z.string(), z.unknown()),
        }),
      ),
    }),
    reply: z.strictObject({
      message: assistantSchema,
      finishReason: z.enum(["stop", "tool_calls", "length", "content_filter", "other"]),
      usage: z
        .strictObject({
          promptTokens: tokenCount,
          completionTokens: tokenCount,
          totalTokens: tokenCount,
        })
        .optional(),
    }),
  });
}

/** Built when a recording is replayed (`--replay`), not at every start-up. */
export const recordedExchangeSchema = builtOnce(buildRecordedExchangeSchema);

export function toRecordedExchange(
  messages: readonly Message[],
  tools: readonly ModelToolSpec[],
  reply: ModelReply,
): RecordedExchange {
  return { request: { messages, tools }, reply };
}
