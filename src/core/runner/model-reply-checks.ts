/**
 * Checks on a model reply before anything in it runs: cut-off or filtered replies, empty ones,
 * more calls than a reply may hold, and call ids that are empty or already used (given fresh
 * ones); and the running token count.
 */
import { IncompleteModelReplyError, ModelProviderError } from "../common/agent-errors.js";
import { shortCallId, withShortIdAndName } from "./long-call-ids.js";
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
  // Shortened first, so fresh ids are judged on the ids the history keeps (long-call-ids.ts).
  const toolCalls = withFreshCallIds(
    message.toolCalls.map((call) => withShortIdAndName(call)),
    usedCallIds,
  );
  return { role: "assistant", content: message.content, toolCalls };
}

/**
 * Every call gets an id new to the conversation before anything runs. Some OpenAI-compatible
 * servers number calls per reply (`call_0` in every reply): such an id (or an empty one) is
 * replaced by a fresh one (`call_0_2`, `call_2`), in the history, the journal and the result alike, so each
 * result pairs with its own call and the provider accepts the next request. Refusing the reply
 * instead would stop every run against such a server at its second tool call.
 */
function withFreshCallIds(calls: readonly ToolCall[], used: ReadonlySet<string>): ToolCall[] {
  // The reply's own new ids are kept first, so a replacement never takes one of them.
  const taken = new Set(used);
  const keeps = calls.map((call) => {
    const fresh = call.id !== "" && !taken.has(call.id);
    taken.add(call.id);
    return fresh;
  });
  return calls.map((call, index) => {
    if (keeps[index] === true) return call;
    const base = call.id === "" ? "call" : call.id;
    // Kept short too: a 256-character id with `_2` after it is digested, as a long one is.
    const fresh = (suffix: number): string => shortCallId(`${base}_${String(suffix)}`);
    let suffix = 2;
    while (taken.has(fresh(suffix))) suffix += 1;
    const id = fresh(suffix);
    taken.add(id);
    return { ...call, id };
  });
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
