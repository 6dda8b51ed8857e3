/**
 * Checks on a model reply before anything in it runs: cut-off or filtered replies, empty ones,
 * more calls than a reply may hold, and call ids that are empty or already used; and the running
 * token count.
 */
import { IncompleteModelReplyError, ModelProviderError } from "../common/agent-errors.js";
import { withShortIdAndName } from "./long-call-ids.js";
import type { AssistantMessage, ToolCall } from "../ports/messages.js";
import type { ModelReply, TokenUsage } from "../ports/model.js";

/**
 * As many calls as a streamed reply can carry (openai-chat-stream.ts). Past the calls a reply may
 * run (bounded-reply.ts) each one is still answered and journaled, so their number needs a bound.
 */
export const MAX_CALLS_IN_REPLY = 1001;

/** `usedCallIds`: the call ids the conversation has used so far (`ToolPairingCheck.usedCallIds`). */
export function checkedReply(
  reply: ModelReply,
  usedCallIds: ReadonlySet<string>,
): AssistantMessage {
  const { message, finishReason } = reply;
  if (finishReason === "length") {
    throw new IncompleteModelReplyError("The model's reply was cut off at its token limit");
  }
  if (finishReason === "content_filter") {
    throw new IncompleteModelReplyError("The model's reply was withheld by a content filter");
  }
  const hasText = message.content !== null && message.content.trim() !== "";
  if (!hasText && message.toolCalls.length === 0) {
    throw new IncompleteModelReplyError("The model replied with neither text nor tool calls");
  }
  if (message.toolCalls.length > MAX_CALLS_IN_REPLY) {
    throw new ModelProviderError(
      `Malformed model reply: ${String(message.toolCalls.length)} tool calls, more than the ${String(MAX_CALLS_IN_REPLY)} a reply may hold`,
    );
  }
  // Shortened before the check, so it compares the ids the history keeps (long-call-ids.ts).
  const toolCalls = message.toolCalls.map((call) => withShortIdAndName(call));
  assertFreshCallIds(toolCalls, usedCallIds);
  return { role: "assistant", content: message.content, toolCalls };
}

/**
 * Every call id must be new to the conversation before anything runs: a reused id (some servers
 * number calls per reply) would pair a result with the wrong call, and the provider would reject
 * the next request only after the call had already run.
 */
function assertFreshCallIds(calls: readonly ToolCall[], used: ReadonlySet<string>): void {
  const inReply = new Set<string>();
  for (const call of calls) {
    if (call.id === "") {
      throw new ModelProviderError("Malformed model reply: a tool call has an empty id");
    }
    if (used.has(call.id) || inReply.has(call.id)) {
      throw new ModelProviderError(
        `Malformed model reply: tool call id ${JSON.stringify(call.id)} was already used in this conversation`,
      );
    }
    inReply.add(call.id);
  }
}

export function addUsage(
  total: TokenUsage | undefined,
  turn: TokenUsage | undefined,
): TokenUsage | undefined {
  if (turn === undefined) return total;
  if (total === undefined) return turn;
  return {
    promptTokens: total.promptTokens + turn.promptTokens,
    completionTokens: total.completionTokens + turn.completionTokens,
    totalTokens: total.totalTokens + turn.totalTokens,
  };
}
