import type { ApprovalProvider } from "../core/approval.js";
import type { PermissionDecision } from "../core/permission-decision.js";
import type { PermissionRequest } from "../core/permission-request.js";
import { escapeForTerminal } from "./terminal-text.js";

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
      this.#output.write(`${lines.map((line) => escapeForTerminal(line)).join("\n")}\n`);
    }
    return this.#prompt.decide(request);
  }
}
