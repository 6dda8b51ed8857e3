import type { RunWaitingError } from "../../../core/common/agent-errors.js";
import {
  MAX_SHOWN_REQUEST_CHARS,
  requestLines,
  shownRequestLength,
  type ShownRequest,
} from "./p04-request-text.js";
import { escapeForPrompt } from "../render/terminal-text.js";

/** What a run that waits leaves on stderr: the request, its risks, and how to answer it. */
export function waitingMessage(error: RunWaitingError, runId: string | undefined): string {
  const { id, expiresAt } = error.request;
  const text = (value: unknown): string => escapeForPrompt(String(value));
  const shown = shownRequest(error.request);
  const length = shownRequestLength(shown);
  const { summary, script, risks } = requestLines(shown, "risk: ");
  const lines = [
    `agent: waiting for approval: request ${text(id)} (nothing ran)`,
    ...(error.replaces === undefined
      ? []
      : [
          `  it replaces request ${text(error.replaces)}, which can no longer be approved: what the call would run changed since`,
        ]),
    // Whole or not at all, as at the terminal's question: `agent approvals` shows it whole.
    ...(length > MAX_SHOWN_REQUEST_CHARS
      ? [
          `  the request is ${String(length)} characters long, too long to show here (more than ${String(MAX_SHOWN_REQUEST_CHARS)}): read it whole with agent approvals`,
        ]
      : [summary, ...script, ...risks].map((line) => `  ${line}`)),
    `  the request expires at ${text(expiresAt)}`,
    `  approve: agent approve ${text(id)} [--ttl 15m]    deny: agent deny ${text(id)}`,
    runId === undefined
      ? "  then run the same task again to continue"
      : `  then go on with: agent resume ${text(runId)}`,
  ];
  return `${lines.join("\n")}\n`;
}

/** The fields shown, from a request the run gave as a plain record. */
function shownRequest(request: Readonly<Record<string, unknown>>): ShownRequest {
  const strings = (value: unknown): string[] =>
    Array.isArray(value) ? value.map((one) => String(one)) : [];
  return {
    summary: String(request.summary),
    scriptRows: strings(request.scriptRows),
    risks: strings(request.risks),
  };
}
