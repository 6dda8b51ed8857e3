import type { ModelRetryNotice } from "../../../bootstrap.js";
import { escapeForPrompt } from "../render/terminal-text.js";

/**
 * `agent: retrying in 4 s (2 of 2): connection reset`: said as the wait begins, so a slow or
 * flaky model server is not mistaken for a hang. The reason may quote the server: escaped.
 */
export function retryNoticeLine(notice: ModelRetryNotice): string {
  const seconds = notice.delayMs / 1000;
  const wait = Number.isInteger(seconds) ? String(seconds) : seconds.toFixed(1);
  return `agent: retrying in ${wait} s (${String(notice.retry)} of ${String(notice.retries)}): ${escapeForPrompt(notice.reason)}`;
}
