/**
 * One line per `@path` mention of a message, before it is sent: what the model will read with
 * it, and for each mention not attached, why (its text then goes as typed, nothing more).
 */
import type { MentionReport } from "../../../core/runner/mention-attachments.js";
import { escapeForPrompt } from "../render/terminal-text.js";

export function mentionLine(report: MentionReport): string {
  const mention = `@${escapeForPrompt(report.path)}`;
  switch (report.kind) {
    case "attached":
      return `attached ${mention} (${count(report.lines, "line")}, ${count(report.bytes, "byte")})`;
    case "not_found":
      return `not attached ${mention}: no such file in the workspace; left as text`;
    case "refused":
      return `not attached ${mention}: ${escapeForPrompt(report.reason)}; left as text`;
  }
}

function count(value: number, unit: string): string {
  return `${value} ${unit}${value === 1 ? "" : "s"}`;
}
