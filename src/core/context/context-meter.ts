/**
 * How many tokens a history takes, as well as the harness can know: the provider's own count of
 * the last request (its `usage`) for the part of the history it saw, plus an estimate for what was
 * added since. A history that no longer begins with what was counted (after a compaction or
 * `/clear`) is estimated whole until the next reply counts it again.
 */
import type { Message } from "../ports/messages.js";
import type { ModelToolSpec, TokenUsage } from "../ports/model.js";
import { estimateMessagesTokens, estimateToolsTokens } from "./context-budget.js";

interface Counted {
  /** The last message the provider's count covered (the reply itself). */
  readonly last: Message;
  readonly length: number;
  readonly tokens: number;
}

export class ContextMeter {
  #counted: Counted | undefined;

  /** After a reply was pushed onto `history`: the provider counted the prompt and the reply. */
  counted(history: readonly Message[], usage: TokenUsage | undefined): void {
    const last = history.at(-1);
    if (usage === undefined || last === undefined || usage.promptTokens <= 0) return;
    this.#counted = {
      last,
      length: history.length,
      tokens: usage.promptTokens + usage.completionTokens,
    };
  }

  /** The tokens a request with this history and these tools would take. */
  measure(history: readonly Message[], tools: readonly ModelToolSpec[]): number {
    const counted = this.#counted;
    if (counted !== undefined && history[counted.length - 1] === counted.last) {
      return counted.tokens + estimateMessagesTokens(history.slice(counted.length));
    }
    return estimateMessagesTokens(history) + estimateToolsTokens(tools);
  }
}
