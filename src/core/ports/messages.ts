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

/** The answer to one tool call, paired to it by id (the seed's `toolMessage(content, id)`). */
export function toolMessage(content: string, toolCallId: string): ToolMessage {
  return { role: "tool", toolCallId, content };
}

export class ToolPairingError extends Error {
  override readonly name = "ToolPairingError";
}

/**
 * Chat APIs reject a history where a tool call has no answer (or an answer has no call), so the loop
 * checks before every request: each assistant message with N tool calls is followed by exactly N tool
 * messages answering those ids one-to-one, in order.
 */
export function validateToolPairing(history: readonly Message[]): void {
  new ToolPairingCheck().check(history);
}

/**
 * `validateToolPairing` for a history that grows turn by turn: it remembers the messages it has
 * passed (by identity) and the call ids they used, so each check reads only what was added since.
 * A history that no longer begins with what was checked (compacted, cleared, another run's) is read
 * again from the start. The errors are the same, in the same order, as a check of the whole.
 */
export class ToolPairingCheck {
  #checked: Message[] = [];
  #seenCallIds = new Set<string>();

  check(history: readonly Message[]): void {
    if (!this.#extends(history)) {
      this.#checked = [];
      this.#seenCallIds = new Set();
    }
    const seen = this.#seenCallIds;
    let unanswered: readonly ToolCall[] = [];
    let answered = 0;
    const checked = this.#checked;
    const from = checked.length;
    // Not a copy's entries(): a resume checks its whole history at once, and two checks of 2,000
    // messages allocated 1 MB of [index, message] pairs.
    const added = from === 0 ? history : history.slice(from);
    let index = from - 1;
    try {
      for (const message of added) {
        index += 1;
        if (message.role === "tool") {
          const expected = unanswered[answered];
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
          answered += 1;
          continue;
        }
        throwIfUnanswered(unanswered[answered], index);
        if (message.role === "assistant") {
          for (const { id } of message.toolCalls) {
            if (seen.has(id)) {
              throw new ToolPairingError(`Duplicate tool call id ${JSON.stringify(id)}`);
            }
            seen.add(id);
          }
          unanswered = message.toolCalls;
          answered = 0;
        }
      }
      throwIfUnanswered(unanswered[answered], history.length);
    } catch (error) {
      // Nothing half-read is kept: the next check starts over.
      this.#checked = [];
      this.#seenCallIds = new Set();
      throw error;
    }
    for (const message of added) checked.push(message);
  }

  /**
   * The call ids `history` uses: from the last check when it was of this history, else counted
   * afresh (without judging its pairing).
   */
  usedCallIds(history: readonly Message[]): ReadonlySet<string> {
    if (history.length === this.#checked.length && this.#extends(history)) {
      return this.#seenCallIds;
    }
    return new Set(
      history.flatMap((message) =>
        message.role === "assistant" ? message.toolCalls.map((call) => call.id) : [],
      ),
    );
  }

  /** Whether `history` begins with the messages checked so far (the same objects). */
  #extends(history: readonly Message[]): boolean {
    const checked = this.#checked;
    if (history.length < checked.length) return false;
    for (let index = checked.length - 1; index >= 0; index -= 1) {
      if (history[index] !== checked[index]) return false;
    }
    return true;
  }
}

function throwIfUnanswered(first: ToolCall | undefined, index: number): void {
  if (first !== undefined) {
    throw new ToolPairingError(
      `Missing tool result for call id ${JSON.stringify(first.id)} at index ${index}`,
    );
  }
}
