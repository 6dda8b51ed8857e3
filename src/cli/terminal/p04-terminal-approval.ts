import type { ApprovalProvider } from "../../core/policy/approval.js";
import type { PermissionDecision } from "../../core/policy/permission-decision.js";
import type { PermissionRequest } from "../../core/policy/permission-request.js";
import { elideMiddle, escapeForPrompt } from "./terminal-text.js";

const MAX_LINE = 1200;
const TAIL = 300;

/**
 * P04 at a terminal: before the usual [y/N] prompt, what the approval would be bound to (cwd, full
 * argv, effect, where it runs) and the risks, since the allowlist alone makes nothing safe.
 */
export class P04TerminalApproval implements ApprovalProvider {
  readonly #prompt: ApprovalProvider;
  readonly #output: NodeJS.WritableStream;

  constructor(prompt: ApprovalProvider, output: NodeJS.WritableStream) {
    this.#prompt = prompt;
    this.#output = output;
  }

  decide(request: PermissionRequest): Promise<PermissionDecision> {
    const ask = request.proposedDecision?.approvalRequest;
    if (ask !== undefined) {
      const lines = [
        "",
        `Request ${ask.id}: ${ask.summary}`,
        ...ask.risks.map((risk) => `Risk: ${risk}`),
      ];
      // A very long script must not scroll the request's start off the screen before [y/N]: its
      // middle is cut here (`agent approvals` shows it whole).
      const shown = lines.map((line) => elideMiddle(escapeForPrompt(line), MAX_LINE, TAIL));
      this.#output.write(`${shown.join("\n")}\n`);
    }
    return this.#prompt.decide(request);
  }
}

/**
 * Who answers P04's `ask`: the person at a terminal (the request and its risks, then [y/N]), or
 * nobody, and then the run waits for `agent approve`.
 */
export function p04Approver(
  interactive: boolean,
  terminal: ApprovalProvider,
  output: NodeJS.WritableStream,
): ApprovalProvider | undefined {
  return interactive ? new P04TerminalApproval(terminal, output) : undefined;
}
