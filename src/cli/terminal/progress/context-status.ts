/**
 * The context budget as the person sees it: "context N% used" on the status line and the closing
 * line, and one line for each compaction (or for the summary that failed, once).
 */
import { percentOf } from "../../../core/context/context-budget.js";
import type { CompactionEvent } from "../../../core/context/context-keeper.js";
import { escapeForPrompt } from "../render/terminal-text.js";

export function contextUsed(tokens: number, window: number): string {
  return `context ${String(percentOf(tokens, window))}% used`;
}

const REASONS: Readonly<Record<string, string>> = {
  auto: "before the window filled",
  context_error: "after the provider refused the request as too long",
  command: "on /compact",
};

/** The line for a compaction event; `undefined` for one that needs none. */
export function compactionLine(event: CompactionEvent): string | undefined {
  switch (event.kind) {
    case "compacted":
      return `context compacted ${REASONS[event.reason] ?? ""}: ~${String(event.tokensBefore)} → ~${String(event.tokensAfter)} tokens (older turns summarized)`;
    case "summary_failed":
      return `agent: warning: the summary for compaction failed (${escapeForPrompt(event.cause)}); going on uncompacted`;
    case "nothing_to_compact":
      // Said only when asked for: before a request it is routine.
      return event.reason === "command" ? "context: nothing older to compact" : undefined;
    case "not_smaller":
      // Said only when asked for, as above; the history is left as it was.
      return event.reason === "command"
        ? `context: compacting would not make the history smaller (~${String(event.tokens)} tokens); left as it is`
        : undefined;
  }
}
