import type { ApprovalProvider } from "../../../core/policy/approval.js";
import { PermissionDecision } from "../../../core/policy/permission-decision.js";
import type { PermissionRequest } from "../../../core/policy/permission-request.js";
import { RunWaitingError } from "../../../core/common/agent-errors.js";
import {
  escapeRequestText,
  MAX_SHOWN_REQUEST_CHARS,
  requestLines,
  SCRIPT_BLOCK_ROW,
  shownRequestLength,
} from "./p04-request-text.js";
import { MODEL_INDENT, layOutLine } from "../render/terminal-layout.js";
import { layOutWords } from "../render/styled-rows.js";

export { MAX_SHOWN_REQUEST_CHARS } from "./p04-request-text.js";
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
 * `Risk:`) start at column 0 and every wrapped row is indented under them. What the command runs
 * is shown in a marked block, every character but printable ASCII escaped (p04-request-text.ts),
 * so a script cannot draw a closing quote, a `Risk:` or a `[Permission]` row that passes for the
 * harness's own. A request too long to show whole is not asked about: the run waits on it.
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
    const length = shownRequestLength(ask);
    if (length > MAX_SHOWN_REQUEST_CHARS) {
      // Nobody is asked about what they cannot read whole: the request waits, saved, for
      // `agent approvals` to show it and `agent approve`/`deny` to answer it.
      const reason = `${REQUEST_TOO_LONG}: request ${ask.id} is ${String(length)} characters long, more than the terminal shows whole (${String(MAX_SHOWN_REQUEST_CHARS)}), so it was not asked here and nothing was run; it waits: read it with agent approvals, and answer with agent approve or agent deny`;
      return Promise.reject(
        new RunWaitingError(request.call.callId, { ...ask, risks: [...ask.risks] }, reason),
      );
    }
    // A terminal that does not say its width is taken as 80 wide: rows the harness breaks can
    // only end early, while rows left to the terminal would wrap to column 0.
    const { isTTY, columns: width } = this.#output;
    const columns =
      isTTY !== true ? undefined : width !== undefined && width > 0 ? width : ASSUMED_COLUMNS;
    const { summary, script, risks } = requestLines(ask, "Risk: ");
    const laidOut = (line: string, first: string, rest: string): string =>
      layOutLine(line, { columns, first, rest });
    // The harness's own words (the summary, the block's frame, the risks) break between words;
    // the block's text, the model's, as it is, row by row.
    const inWords = (line: string, first: string, rest: string): string =>
      layOutWords(line, { columns, first, rest });
    const rows = [
      inWords(`Request ${escapeRequestText(ask.id)}: ${summary}`, "", MODEL_INDENT),
      // The block's rows, wrapped ones too, all start with its mark: none is the harness's own.
      ...script.map((line) =>
        line.startsWith(SCRIPT_BLOCK_ROW)
          ? laidOut(
              line.slice(SCRIPT_BLOCK_ROW.length),
              `${MODEL_INDENT}${SCRIPT_BLOCK_ROW}`,
              `${MODEL_INDENT}${SCRIPT_BLOCK_ROW}`,
            )
          : inWords(line, MODEL_INDENT, `${MODEL_INDENT}${SCRIPT_BLOCK_ROW}`),
      ),
      ...risks.map((line) => inWords(line, "", MODEL_INDENT)),
    ];
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
