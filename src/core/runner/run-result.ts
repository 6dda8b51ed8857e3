import type { Message } from "../ports/messages.js";
import type { TokenUsage } from "../ports/model.js";
import type { ToolOutcome } from "../tools/tool-outcome.js";

export interface RunResult {
  readonly finalText: string;
  readonly turns: number;
  readonly history: readonly Message[];
  readonly usage: TokenUsage | undefined;
  /** One per tool call, in order: whether it ran and how it ended. */
  readonly outcomes: readonly ToolOutcome[];
}
