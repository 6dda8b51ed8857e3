import type {
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import type { Message } from "../../core/ports/messages.js";
import type { ModelToolSpec } from "../../core/ports/model.js";

/** Our provider-neutral history in chat-completions shape, ids and raw argument strings unchanged. */
export function toChatMessages(messages: readonly Message[]): ChatCompletionMessageParam[] {
  return messages.map((message): ChatCompletionMessageParam => {
    switch (message.role) {
      case "system":
        return { role: "system", content: message.content };
      case "user":
        return { role: "user", content: message.content };
      case "tool":
        return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
      case "assistant": {
        if (message.toolCalls.length === 0) {
          // The API rejects an assistant message with neither content nor tool calls.
          return { role: "assistant", content: message.content ?? "" };
        }
        return {
          role: "assistant",
          content: message.content,
          tool_calls: message.toolCalls.map((call) => ({
            id: call.id,
            type: "function",
            function: { name: call.name, arguments: call.arguments },
          })),
        };
      }
    }
  });
}

export function toChatTools(tools: readonly ModelToolSpec[]): ChatCompletionFunctionTool[] {
  return tools.map((tool) => ({
    type: "function",
    function: {
      name: tool.name,
      description: tool.description,
      parameters: { ...tool.parameters },
    },
  }));
}
