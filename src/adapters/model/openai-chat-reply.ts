import { ModelProviderError } from "../../core/common/agent-errors.js";
import type { ToolCall } from "../../core/ports/messages.js";
import type { FinishReason, ModelReply, TokenUsage } from "../../core/ports/model.js";
import { oneLine } from "../../core/common/one-line.js";
import { errorObjectIn, providerErrorFor } from "./provider-error-body.js";

/**
 * Turns whatever the provider sent into a ModelReply, checking each step: OpenAI-compatible servers
 * vary, and the SDK's types describe OpenAI's promise, not what actually arrived.
 */
export function parseChatCompletion(body: unknown): ModelReply {
  if (!isRecord(body)) throw malformed(`expected a JSON object, got ${typeName(body)}`);
  const { choices } = body;
  if (!Array.isArray(choices) || choices.length === 0) {
    // A server that answers 200 with an error body: the same failure as its HTTP error.
    throw providerErrorFor(errorObjectIn(body)) ?? malformed("no choices");
  }
  const choice: unknown = choices[0];
  if (!isRecord(choice)) throw malformed("choice 0 is not an object");
  const { message } = choice;
  if (!isRecord(message)) throw malformed("choice 0 has no message");

  const usage = parseUsage(body.usage);
  const reply: ModelReply = {
    message: {
      role: "assistant",
      content: parseContent(message.content),
      toolCalls: parseToolCalls(message.tool_calls),
    },
    finishReason: parseFinishReason(choice.finish_reason),
  };
  return usage === undefined ? reply : { ...reply, usage };
}

function parseContent(content: unknown): string | null {
  if (content === undefined || content === null) return null;
  if (typeof content !== "string") throw malformed("message content is not a string");
  return content;
}

function parseToolCalls(toolCalls: unknown): ToolCall[] {
  if (toolCalls === undefined || toolCalls === null) return [];
  if (!Array.isArray(toolCalls)) throw malformed("tool_calls is not a list");
  // Two calls with one id are kept as sent: the runner gives the second a fresh id before anything
  // runs (model-reply-checks.ts), as it does an id an earlier reply used.
  return toolCalls.map((call: unknown, index): ToolCall => parseToolCall(call, index));
}

function parseToolCall(call: unknown, index: number): ToolCall {
  if (!isRecord(call)) throw malformed(`tool call ${index} is not an object`);
  // Some compatible servers omit `type`; when present it must be "function".
  if (call.type !== undefined && call.type !== "function") {
    throw malformed(`tool call ${index} has type ${describeValue(call.type)}, expected "function"`);
  }
  const { id } = call;
  if (typeof id !== "string" || id === "") throw malformed(`tool call ${index} has no id`);
  const fn = call.function;
  if (!isRecord(fn)) throw malformed(`tool call ${index} has no function`);
  const { name } = fn;
  if (typeof name !== "string" || name === "") {
    throw malformed(`tool call ${index} has no function name`);
  }
  const args = fn.arguments;
  if (typeof args !== "string") throw malformed(`tool call ${index} arguments are not a string`);
  return { id, name, arguments: args };
}

function parseFinishReason(reason: unknown): FinishReason {
  switch (reason) {
    case "stop":
    case "tool_calls":
    case "length":
    case "content_filter":
      return reason;
    // The deprecated single-function form means the same thing to the loop.
    case "function_call":
      return "tool_calls";
    default:
      return "other";
  }
}

/** Usage is informational: a partial or odd report is dropped, never fatal. */
function parseUsage(usage: unknown): TokenUsage | undefined {
  if (!isRecord(usage)) return undefined;
  const promptTokens = usage.prompt_tokens;
  const completionTokens = usage.completion_tokens;
  if (!isTokenCount(promptTokens) || !isTokenCount(completionTokens)) return undefined;
  const total = usage.total_tokens;
  return {
    promptTokens,
    completionTokens,
    totalTokens: isTokenCount(total) ? total : promptTokens + completionTokens,
  };
}

function isTokenCount(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

function malformed(detail: string): ModelProviderError {
  return new ModelProviderError(oneLine(`Malformed model reply: ${detail}`));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") {
    // A web page or proxy banner here usually means OPENAI_BASE_URL points at the wrong place.
    return `text starting ${JSON.stringify(value.slice(0, 60))}`;
  }
  return typeof value;
}

function describeValue(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : typeName(value);
}
