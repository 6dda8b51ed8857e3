/**
 * How many tokens a history takes, as well as the harness can know: the provider's own count of
 * the last request (its `usage`) for the part of the history it saw, plus an estimate for what was
 * added since. A history that no longer begins with exactly what was counted (after a compaction
 * or `/clear`) is estimated whole until the next reply counts it again.
 */
import type { Message } from "../ports/messages.js";
import type { ModelToolSpec, TokenUsage } from "../ports/model.js";
import { estimateMessagesTokens, estimateToolsTokens } from "./context-budget.js";

interface Counted {
  /** The messages the provider's count covered, the reply last. */
  readonly messages: readonly Message[];
  readonly tokens: number;
}

export class ContextMeter {
  #counted: Counted | undefined;

  /** After a reply was pushed onto `history`: the provider counted the prompt and the reply. */
  counted(history: readonly Message[], usage: TokenUsage | undefined): void {
    const last = history.at(-1);
    if (usage === undefined || last === undefined || usage.promptTokens <= 0) return;
    this.#counted = { messages: [...history], tokens: usage.promptTokens + usage.completionTokens };
  }

  /** The tokens a request with this history and these tools would take. */
  measure(history: readonly Message[], tools: readonly ModelToolSpec[]): number {
    const counted = this.#counted;
    if (counted !== undefined && startsWith(history, counted.messages)) {
      return counted.tokens + estimateMessagesTokens(history.slice(counted.messages.length));
    }
    return estimateMessagesTokens(history) + estimateToolsTokens(tools);
  }
}

/**
 * Whether `history` still begins with exactly the counted messages. A compaction can leave the
 * last reply in place at the same index while the messages before it changed, so every one is
 * compared.
 */
function startsWith(history: readonly Message[], counted: readonly Message[]): boolean {
  return (
    history.length >= counted.length &&
    counted.every((message, index) => history[index] === message)
  );
}
