import type { AssistantMessage, ToolCall } from "../../src/core/ports/messages.js";
import type {
  FinishReason,
  ModelClient,
  ModelReply,
  ModelRequest,
  TokenUsage,
} from "../../src/core/ports/model.js";

/** Replays scripted replies in order and records every request, like vercel/ai's mock model. */
export class ScriptedModelClient implements ModelClient {
  readonly requests: ModelRequest[] = [];
  readonly #replies: ModelReply[];

  constructor(replies: readonly ModelReply[]) {
    this.#replies = [...replies];
  }

  complete(request: ModelRequest): Promise<ModelReply> {
    this.requests.push({ ...request, messages: structuredClone([...request.messages]) });
    const reply = this.#replies.shift();
    if (reply === undefined) {
      return Promise.reject(new Error("ScriptedModelClient ran out of replies"));
    }
    return Promise.resolve(reply);
  }
}

export function textReply(text: string, usage?: TokenUsage): ModelReply {
  const message: AssistantMessage = { role: "assistant", content: text, toolCalls: [] };
  return usage === undefined
    ? { message, finishReason: "stop" }
    : { message, finishReason: "stop", usage };
}

export function toolCallReply(
  calls: readonly (Omit<ToolCall, "arguments"> & { arguments: unknown })[],
  finishReason: FinishReason = "tool_calls",
): ModelReply {
  return {
    message: {
      role: "assistant",
      content: null,
      toolCalls: calls.map((call) => ({
        id: call.id,
        name: call.name,
        arguments:
          typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
      })),
    },
    finishReason,
  };
}
