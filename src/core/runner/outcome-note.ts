/**
 * What the model reads of a failed call's outcome (seed 004): whether the action executed, and
 * for a denial who denied it and what the denial covers. The error's own text is kept as it is
 * and the note ends its first line, in one form for every tool:
 *
 *   Error [policy_denied]: argv_not_allowed: … (executed: no; source: p04-policy; scope: …)
 *   Error [shell_failed]: bash exited with code 2 (the command ran) (executed: yes)
 *
 * Chapters 1–3 do not add it: the tutorial's tests pin their whole messages.
 */
import type { ToolOutcome } from "../tools/tool-outcome.js";
import type { ToolResult } from "../tools/tool-result.js";
import { THIS_CALL_ONLY } from "../policy/permission-decision.js";

export function outcomeNote(
  outcome: Pick<ToolOutcome, "executed" | "status" | "decision">,
): string {
  const parts = [`executed: ${outcome.executed}`];
  if (outcome.status === "denied") {
    parts.push(`source: ${outcome.decision?.source ?? "policy"}`);
    parts.push(`scope: ${outcome.decision?.scope ?? THIS_CALL_ONLY}`);
  }
  return `(${parts.join("; ")})`;
}

/** The result with the note at the end of its first line; a success is left as it is. */
export function withOutcomeNote(
  result: ToolResult,
  outcome: Pick<ToolOutcome, "executed" | "status" | "decision">,
): ToolResult {
  if (!result.isError) return result;
  const note = outcomeNote(outcome);
  const newline = result.content.indexOf("\n");
  const content =
    newline === -1
      ? `${result.content} ${note}`
      : `${result.content.slice(0, newline)} ${note}${result.content.slice(newline)}`;
  return Object.freeze({ ...result, content });
}
