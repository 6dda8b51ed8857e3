/** The conversation as the harness keeps it: provider-neutral, plain data. */

export interface ToolCall {
  readonly id: string;
  readonly name: string;
  /** The raw JSON text exactly as the model sent it; parsed only by the tool registry. */
  readonly arguments: string;
}

export interface SystemMessage {
  readonly role: "system";
  readonly content: string;
}

export interface UserMessage {
  readonly role: "user";
  readonly content: string;
}

export interface AssistantMessage {
  readonly role: "assistant";
  readonly content: string | null;
  readonly toolCalls: readonly ToolCall[];
}

export interface ToolMessage {
  readonly role: "tool";
  readonly toolCallId: string;
  readonly content: string;
}

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

export class ToolPairingError extends Error {
  override readonly name = "ToolPairingError";
}

/**
 * Chat APIs reject a history where a tool call has no answer (or an answer has no call), so the loop
 * checks before every request: each assistant message with N tool calls is followed by exactly N tool
 * messages answering those ids one-to-one, in order.
 */
export function validateToolPairing(history: readonly Message[]): void {
  const seenCallIds = new Set<string>();
  let unanswered: ToolCall[] = [];
  for (const [index, message] of history.entries()) {
    if (message.role === "tool") {
      const expected = unanswered.shift();
      if (expected === undefined) {
        throw new ToolPairingError(
          `Orphan tool message at index ${index} for call id ${JSON.stringify(message.toolCallId)}`,
        );
      }
      if (message.toolCallId !== expected.id) {
        throw new ToolPairingError(
          `Tool result at index ${index} answers ${JSON.stringify(message.toolCallId)}, expected ${JSON.stringify(expected.id)}`,
        );
      }
      continue;
    }
    throwIfUnanswered(unanswered, index);
    if (message.role === "assistant") {
      for (const call of message.toolCalls) {
        if (seenCallIds.has(call.id)) {
          throw new ToolPairingError(`Duplicate tool call id ${JSON.stringify(call.id)}`);
        }
        seenCallIds.add(call.id);
      }
      unanswered = [...message.toolCalls];
    }
  }
  throwIfUnanswered(unanswered, history.length);
}

function throwIfUnanswered(unanswered: readonly ToolCall[], index: number): void {
  const first = unanswered[0];
  if (first !== undefined) {
    throw new ToolPairingError(
      `Missing tool result for call id ${JSON.stringify(first.id)} at index ${index}`,
    );
  }
}
