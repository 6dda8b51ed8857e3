/**
 * `/context`: what the window holds, by kind, with token counts (estimated; the total is their
 * sum unless a measure is handed in). Project instructions are the part of the system message
 * under INSTRUCTIONS_HEADING.
 */
import type { Message } from "../ports/messages.js";
import type { ModelToolSpec } from "../ports/model.js";
import {
  estimateMessageTokens,
  estimateTextTokens,
  estimateToolsTokens,
  percentOf,
} from "./context-budget.js";
import { isSummaryNote } from "./compaction.js";

/** Begins the project instructions inside the system message (bootstrap puts them there). */
export const INSTRUCTIONS_HEADING = "# Project instructions";

export interface ContextRow {
  readonly label: string;
  readonly count: number;
  readonly tokens: number;
}

export interface ContextReport {
  readonly rows: readonly ContextRow[];
  /** The whole request, as measured (the provider's count where known). */
  readonly tokens: number;
  readonly window?: number;
}

export function describeContext(
  history: readonly Message[],
  tools: readonly ModelToolSpec[],
  measured: { readonly window?: number; readonly tokens?: number },
): ContextReport {
  const rows = new Map<string, { count: number; tokens: number }>();
  const add = (label: string, tokens: number, count = 1): void => {
    const row = rows.get(label) ?? { count: 0, tokens: 0 };
    rows.set(label, { count: row.count + count, tokens: row.tokens + tokens });
  };
  for (const message of history) {
    if (message.role === "system") {
      const at = message.content.indexOf(INSTRUCTIONS_HEADING);
      if (at === -1) add("system", estimateMessageTokens(message));
      else {
        // Split so that the two rows add up to the message's own estimate, as the total does.
        const instructions = estimateTextTokens(message.content.slice(at));
        add("system", estimateMessageTokens(message) - instructions);
        add("instructions (AGENTS.md)", instructions);
      }
    } else if (message.role === "user") {
      add(isSummaryNote(message) ? "summary" : "user lines", estimateMessageTokens(message));
    } else if (message.role === "assistant") {
      add("model replies", estimateMessageTokens(message));
    } else {
      add("tool results", estimateMessageTokens(message));
    }
  }
  // Sent as one block, counted by the tools it defines.
  add("tool definitions", estimateToolsTokens(tools), tools.length);
  const listed = [...rows].map(([label, row]) => ({ label, ...row }));
  const estimated = listed.reduce((sum, row) => sum + row.tokens, 0);
  return {
    rows: listed,
    tokens: measured.tokens ?? estimated,
    ...(measured.window === undefined ? {} : { window: measured.window }),
  };
}

/** The report as lines for the terminal. */
export function formatContextReport(report: ContextReport): string[] {
  const width = Math.max(...report.rows.map((row) => row.label.length));
  const lines = report.rows.map(
    (row) =>
      `  ${row.label.padEnd(width)}  ${String(row.count).padStart(4)}  ~${String(row.tokens)} tokens`,
  );
  const total =
    report.window === undefined
      ? `context: ~${String(report.tokens)} tokens`
      : `context: ${String(report.tokens)} of ${String(report.window)} tokens (${String(percentOf(report.tokens, report.window))}% used)`;
  return [total, ...lines];
}
