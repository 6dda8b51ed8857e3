import type { ApprovalProvider } from "../../../core/policy/approval.js";
import { PermissionDecision } from "../../../core/policy/permission-decision.js";
import type { PermissionRequest } from "../../../core/policy/permission-request.js";
import { MODEL_INDENT, layOutLine } from "../render/terminal-layout.js";
import { escapeForPrompt } from "../render/terminal-text.js";

/**
 * The most characters of a request (as shown, escaped) that the terminal asks about. A request is
 * shown whole or not at all: cutting its middle would hide what would run.
 */
export const MAX_SHOWN_REQUEST_CHARS = 4000;
export const P04_TERMINAL_SOURCE = "p04-terminal";
export const REQUEST_TOO_LONG = "request_too_long_to_show";
const ASSUMED_COLUMNS = 80;

export interface P04TerminalOutput extends NodeJS.WritableStream {
  readonly isTTY?: boolean;
  /** The terminal's width: rows are broken here, each after the first indented. */
  readonly columns?: number;
}

/**
 * P04 at a terminal: before the usual [y/N] prompt, what the approval would be bound to (cwd, full
 * argv, effect, where it runs, the scripts npm will run) and the risks, since the allowlist alone
 * makes nothing safe. Laid out as the chapter-3 prompt is: the harness's labels (`Request …:`,
 * `Risk:`) start at column 0, every wrapped row of the request is indented under them and every
 * control character is escaped, so a script cannot draw a closing quote, a `Risk:` or a
 * `[Permission]` line of its own at the margin.
 */
export class P04TerminalApproval implements ApprovalProvider {
  readonly #prompt: ApprovalProvider;
  readonly #output: P04TerminalOutput;

  constructor(prompt: ApprovalProvider, output: P04TerminalOutput) {
    this.#prompt = prompt;
    this.#output = output;
  }

  decide(request: PermissionRequest): Promise<PermissionDecision> {
    const ask = request.proposedDecision?.approvalRequest;
    if (ask === undefined) return this.#prompt.decide(request);
    const summary = escapeForPrompt(ask.summary);
    const length = Array.from(summary).length;
    if (length > MAX_SHOWN_REQUEST_CHARS) {
      // Nobody is asked about what they cannot read whole; the audit line says why.
      const reason = `${REQUEST_TOO_LONG}: request ${ask.id} is ${String(length)} characters long, more than the terminal shows whole (${String(MAX_SHOWN_REQUEST_CHARS)}), so it was not asked here and nothing was run; run the task without a terminal to have it wait, read it with agent approvals, and answer with agent approve or agent deny`;
      return Promise.resolve(PermissionDecision.deny(reason, P04_TERMINAL_SOURCE));
    }
    // A terminal that does not say its width is taken as 80 wide: rows the harness breaks can
    // only end early, while rows left to the terminal would wrap to column 0.
    const { isTTY, columns: width } = this.#output;
    const columns =
      isTTY !== true ? undefined : width !== undefined && width > 0 ? width : ASSUMED_COLUMNS;
    const lines = [
      `Request ${escapeForPrompt(ask.id)}: ${summary}`,
      ...ask.risks.map((risk) => `Risk: ${escapeForPrompt(risk)}`),
    ];
    const rows = lines.map((line) => layOutLine(line, { columns, first: "", rest: MODEL_INDENT }));
    this.#output.write(`\n${rows.join("\n")}\n`);
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
  output: P04TerminalOutput,
): ApprovalProvider | undefined {
  return interactive ? new P04TerminalApproval(terminal, output) : undefined;
}
