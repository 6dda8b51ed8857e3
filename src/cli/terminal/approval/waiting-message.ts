import type { RunWaitingError } from "../../../core/common/agent-errors.js";
import { escapeForPrompt } from "../render/terminal-text.js";

/** What a run that waits leaves on stderr: the request, its risks, and how to answer it. */
export function waitingMessage(error: RunWaitingError, runId: string | undefined): string {
  const { id, summary, risks, expiresAt } = error.request;
  const text = (value: unknown): string => escapeForPrompt(String(value));
  const lines = [
    `agent: waiting for approval: request ${text(id)} (nothing ran)`,
    `  ${text(summary)}`,
    ...(Array.isArray(risks) ? risks.map((risk) => `  risk: ${text(risk)}`) : []),
    `  the request expires at ${text(expiresAt)}`,
    `  approve: agent approve ${text(id)} [--ttl 15m]    deny: agent deny ${text(id)}`,
    runId === undefined
      ? "  then run the same task again to continue"
      : `  then go on with: agent resume ${text(runId)}`,
  ];
  return `${lines.join("\n")}\n`;
}
