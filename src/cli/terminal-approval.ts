import { createInterface } from "node:readline";
import { RunCancelledError } from "../core/agent-errors.js";
import type { ApprovalProvider } from "../core/approval.js";
import { PermissionDecision } from "../core/permission-decision.js";
import type { PermissionRequest } from "../core/permission-request.js";
import { APPROVAL_LABELS } from "./approval-labels.js";
import type { Language } from "./args.js";
import { escapeForTerminal, truncateForDisplay } from "./terminal-text.js";

export const TERMINAL_APPROVAL_SOURCE = "terminal-approval";
/** Long file contents are cut in the prompt; the person still sees size and start. */
const MAX_ARGUMENT_CHARS = 4000;

export interface TerminalInput extends NodeJS.ReadableStream {
  readonly isTTY?: boolean;
  /** Node streams set these; a prompt on a stream that has ended would wait for ever. */
  readonly readableEnded?: boolean;
  readonly destroyed?: boolean;
}

export interface TerminalApprovalOptions {
  readonly input: TerminalInput;
  readonly output: NodeJS.WritableStream;
  readonly lang: Language;
  /**
   * Called when the person presses Ctrl-C at the prompt, before `decide` rejects with
   * `RunCancelledError`: the whole run is cancelled and nothing is audited for this call.
   */
  readonly onCancel: () => void;
}

type Answer = { kind: "line"; text: string } | { kind: "eof" } | { kind: "cancel" };

/**
 * Asks the person at the terminal. Only `y` or `yes` allows; Enter, anything else, end of input, or a
 * stdin that is not a terminal denies, so a piped or scripted run can never approve by accident.
 */
export class TerminalApprovalProvider implements ApprovalProvider {
  readonly #options: TerminalApprovalOptions;

  constructor(options: TerminalApprovalOptions) {
    this.#options = options;
  }

  async decide(request: PermissionRequest): Promise<PermissionDecision> {
    if (this.#options.input.isTTY !== true) {
      return PermissionDecision.deny(
        "Interactive approval is unavailable (stdin is not a TTY)",
        TERMINAL_APPROVAL_SOURCE,
      );
    }
    const prompt = renderApprovalPrompt(request, this.#options.lang);
    const answer = await this.#ask(prompt.details, prompt.question);
    switch (answer.kind) {
      case "cancel":
        // Nobody decided this call: the run ends here, and the policy records no decision for it.
        this.#options.onCancel();
        throw new RunCancelledError();
      case "eof":
        return PermissionDecision.deny("User denied this tool call", TERMINAL_APPROVAL_SOURCE);
      case "line":
        return isYes(answer.text)
          ? PermissionDecision.allow("User approved this tool call", TERMINAL_APPROVAL_SOURCE)
          : PermissionDecision.deny("User denied this tool call", TERMINAL_APPROVAL_SOURCE);
    }
  }

  #ask(details: string, question: string): Promise<Answer> {
    const { input, output } = this.#options;
    if (input.readableEnded === true || input.destroyed === true) {
      output.write(`${details}${question}\n`);
      return Promise.resolve({ kind: "eof" });
    }
    return new Promise((resolve) => {
      const reader = createInterface({ input, output, terminal: true });
      let settled = false;
      const settle = (answer: Answer): void => {
        if (settled) return;
        settled = true;
        reader.close();
        if (answer.kind !== "line") output.write("\n");
        resolve(answer);
      };
      reader.once("line", (text) => {
        settle({ kind: "line", text });
      });
      reader.once("close", () => {
        settle({ kind: "eof" });
      });
      reader.once("SIGINT", () => {
        settle({ kind: "cancel" });
      });
      // readline re-emits input errors on itself: a terminal that goes away (EIO after a hang-up)
      // must deny, not crash the process with an unhandled 'error'.
      reader.on("error", () => {
        settle({ kind: "eof" });
      });
      // The question is readline's own prompt so that redrawing the line while typing keeps it.
      output.write(details);
      reader.setPrompt(question);
      reader.prompt();
    });
  }
}

export function isYes(answer: string): boolean {
  const normalized = answer.trim().toLowerCase();
  return normalized === "y" || normalized === "yes";
}

/** Every model-supplied value is JSON-encoded, then escaped, so it cannot repaint the terminal. */
export function renderApprovalPrompt(
  request: PermissionRequest,
  lang: Language,
): { details: string; question: string } {
  const labels = APPROVAL_LABELS[lang];
  const reason = request.proposedDecision?.reason ?? "";
  const shownArguments = truncateForDisplay(
    JSON.stringify(request.call.arguments),
    MAX_ARGUMENT_CHARS,
  );
  const lines = [
    "",
    `${labels.title}: ${escapeForTerminal(request.toolName)}`,
    `${labels.reason}: ${escapeForTerminal(reason)}`,
    `${labels.arguments}: ${escapeForTerminal(shownArguments)}`,
  ];
  if (request.executionEnvironment !== undefined) {
    lines.push(`${labels.runsIn}: ${escapeForTerminal(request.executionEnvironment)}`);
  }
  return { details: `${lines.join("\n")}\n`, question: labels.question };
}
