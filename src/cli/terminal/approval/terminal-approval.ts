import { createInterface } from "node:readline";
import { RunCancelledError } from "../../../core/common/agent-errors.js";
import type { ApprovalProvider } from "../../../core/policy/approval.js";
import { PermissionDecision } from "../../../core/policy/permission-decision.js";
import type { PermissionRequest } from "../../../core/policy/permission-request.js";
import {
  FOR_THE_REST_OF_THE_RUN,
  type RunApprovalAnswer,
} from "../../../core/policy/run-grants.js";
import { APPROVAL_LABELS } from "./approval-labels.js";
import type { Language } from "../../args.js";
import type { FileChange } from "./file-change-preview.js";
import { collapseHiddenRuns } from "../render/hidden-characters.js";
import { reapplyRawMode, stopAndContinue } from "../input/job-control.js";
import type { TerminalInput } from "../input/terminal-input.js";
import {
  MODEL_INDENT,
  layOutLine,
  layOutPieces,
  type LinePiece,
} from "../render/terminal-layout.js";
import { layOutWords } from "../render/styled-rows.js";
import { elideMiddleParts, escapeForPrompt, escapeForTerminal } from "../render/terminal-text.js";

export const TERMINAL_APPROVAL_SOURCE = "terminal-approval";

/**
 * What the person's answer at the prompt decides: `y`, `a` (this exact action for the rest of the
 * run, where the prompt offers it) or anything else, which denies. `agent explain` answers
 * through this too, so its decisions are the run's.
 */
export function answerDecision(answer: "y" | "a" | "n"): RunApprovalAnswer {
  switch (answer) {
    case "y":
      return {
        decision: PermissionDecision.allow(
          "User approved this tool call",
          TERMINAL_APPROVAL_SOURCE,
        ),
        forRun: false,
      };
    case "a":
      return {
        decision: PermissionDecision.allow(
          "User approved this action for the rest of this run",
          TERMINAL_APPROVAL_SOURCE,
          FOR_THE_REST_OF_THE_RUN,
        ),
        forRun: true,
      };
    case "n":
      return {
        decision: PermissionDecision.deny("User denied this tool call", TERMINAL_APPROVAL_SOURCE),
        forRun: false,
      };
  }
}
/**
 * Long file contents are shortened in the middle, so the person still sees how they start and end.
 * A command to execute is never shortened: every character of it would run.
 */
const MAX_ARGUMENT_CHARS = 4000;
const KEPT_TAIL_CHARS = 800;
/** Beside a diff, which shows the content, the arguments take about three rows of 80 columns. */
const ARGUMENTS_BESIDE_DIFF_CHARS = 200;
const KEPT_TAIL_BESIDE_DIFF = 60;

export interface TerminalApprovalOptions {
  readonly input: TerminalInput;
  /** `columns` (a terminal's width) lets long prompt lines wrap with their rows indented. */
  readonly output: NodeJS.WritableStream & {
    readonly isTTY?: boolean;
    readonly columns?: number;
    readonly rows?: number;
  };
  readonly lang: Language;
  /**
   * Called when the person presses Ctrl-C at the prompt, before `decide` rejects with
   * `RunCancelledError`: the whole run is cancelled and nothing is audited for this call.
   */
  readonly onCancel: () => void;
  /** The run's cancellation: a SIGINT sent to the process also closes an open prompt. */
  readonly signal?: AbortSignal;
  /**
   * What a write or an edit would change: shown as a diff in place of the arguments. `undefined`
   * (or a failure) leaves the arguments shown as before.
   */
  readonly previewChange?: (request: PermissionRequest) => Promise<FileChange | undefined>;
  /** Colour for the diff (a terminal without NO_COLOR). */
  readonly color?: boolean;
}

/**
 * Rows of the prompt besides the diff: blanks, label, title, reason, arguments (up to 4), a
 * write's size, path, question.
 */
const PROMPT_ROWS = 13;
const UNKNOWN_ROWS = 24;

/** Input that keeps arriving for this long after the prompt is due counts as typed ahead. */
const TYPE_AHEAD_QUIET_MS = 30;
/** However fast keys keep coming, the prompt opens after this long. */
const TYPE_AHEAD_MAX_MS = 300;
const CTRL_C = "\u0003";

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
    return (await this.#decide(request, false)).decision;
  }

  /**
   * `[y/N/a]`: as `decide`, and `a` (or `always`) allows this call and says the person allows
   * exactly this action again for the rest of the run.
   */
  decideForRun(request: PermissionRequest, note?: string): Promise<RunApprovalAnswer> {
    return this.#decide(request, true, undefined, note);
  }

  /** `[y/N]` where `a` would be offered, with a line saying why it is not. */
  async decideOnce(request: PermissionRequest, whyNotForRun: string): Promise<PermissionDecision> {
    return (await this.#decide(request, false, whyNotForRun)).decision;
  }

  async #decide(
    request: PermissionRequest,
    forRunToo: boolean,
    whyNotForRun?: string,
    note?: string,
  ): Promise<RunApprovalAnswer> {
    const once = (decision: PermissionDecision): RunApprovalAnswer => ({ decision, forRun: false });
    if (this.#options.input.isTTY !== true) {
      return once(
        PermissionDecision.deny(
          "Interactive approval is unavailable (stdin is not a TTY)",
          TERMINAL_APPROVAL_SOURCE,
        ),
      );
    }
    const { output } = this.#options;
    const columns = output.isTTY === true ? output.columns : undefined;
    const change = await this.#previewChange(request);
    const color = this.#options.color ?? false;
    // The `diff` library is loaded at the first diff shown, not by every start. A diff too costly
    // to work out is not shown: the arguments are, as for a change that cannot be read.
    const diff =
      change === undefined
        ? undefined
        : (await import("./diff-view.js")).fileDiffView(change, {
            color,
            columns,
            maxRows:
              (output.isTTY === true && output.rows !== undefined && output.rows > 0
                ? output.rows
                : UNKNOWN_ROWS) - PROMPT_ROWS,
          });
    const labels = APPROVAL_LABELS[this.#options.lang];
    // The line above the question: why `a` is not offered here, or a note the approver gave.
    const aboveQuestion =
      whyNotForRun === undefined
        ? note === undefined
          ? ""
          : `${layOutWords(escapeForTerminal(note), { columns, first: "", rest: MODEL_INDENT })}\n`
        : `${layOutWords(`${labels.notForRun}: ${escapeForTerminal(whyNotForRun)}`, { columns, first: "", rest: MODEL_INDENT })}\n`;
    const questionOf = (offersView: boolean): string =>
      forRunToo
        ? offersView
          ? labels.questionForRunWithView
          : labels.questionForRun
        : offersView
          ? labels.questionWithView
          : labels.question;
    // Fitted to the screen, a diff may cut a long row or leave out its middle lines, and the
    // arguments shown without one are shortened: the person may then ask for every line whole
    // (`v`) before answering, so nothing approved goes unread. The note sits under the diff.
    const first = renderApprovalPrompt(
      request,
      this.#options.lang,
      columns,
      diff?.cut === true
        ? [...diff.rows, layOutWords(labels.viewNote, { columns, first: "", rest: MODEL_INDENT })]
        : diff?.rows,
    );
    let offersView = diff === undefined ? first.argumentsCut : diff.cut;
    const viewNote =
      diff === undefined && offersView
        ? `${layOutWords(labels.viewArgumentsNote, { columns, first: "", rest: MODEL_INDENT })}\n`
        : "";
    let details = `${first.details}${aboveQuestion}${viewNote}`;
    request.askingPerson();
    for (;;) {
      const answer = await this.#ask(details, questionOf(offersView));
      switch (answer.kind) {
        case "cancel":
          // Nobody decided this call: the run ends here, and the policy records no decision.
          this.#options.onCancel();
          throw new RunCancelledError();
        case "eof":
          return answerDecision("n");
        case "line":
          if (offersView && isView(answer.text)) {
            // Every line whole, its wrapped rows indented, then the prompt again.
            details =
              diff === undefined
                ? `\n${labels.wholeArguments}:\n${wholeArgumentRows(request, columns).join("\n")}\n${first.details}${aboveQuestion}`
                : `${renderApprovalPrompt(request, this.#options.lang, columns, diff.whole(), labels.wholeChange).details}${aboveQuestion}`;
            offersView = false;
            continue;
          }
          if (forRunToo && isForRun(answer.text)) return answerDecision("a");
          // The line above the question said `a` is not offered; an `a` typed anyway meant
          // "allow", so it is neither taken as a yes nor quietly as a no: the question comes again.
          if (whyNotForRun !== undefined && isForRun(answer.text)) {
            details = `${layOutWords(labels.forRunNotAnAnswer, { columns, first: "", rest: MODEL_INDENT })}\n`;
            continue;
          }
          return answerDecision(isYes(answer.text) ? "y" : "n");
      }
    }
  }

  async #previewChange(request: PermissionRequest): Promise<FileChange | undefined> {
    const { previewChange } = this.#options;
    if (previewChange === undefined) return undefined;
    try {
      return await previewChange(request);
    } catch {
      return undefined;
    }
  }

  async #ask(details: string, question: string): Promise<Answer> {
    const { input, output, signal } = this.#options;
    if (input.readableEnded === true || input.destroyed === true) {
      output.write(`${details}${question}\n`);
      return { kind: "eof" };
    }
    if (signal?.aborted === true) return { kind: "cancel" };
    // A `y` pressed while the agent worked (or a double `y` at the last prompt) would otherwise
    // answer a question the person has not seen yet.
    if ((await discardTypeAhead(input)) === "cancel") return { kind: "cancel" };
    return new Promise((resolve) => {
      const reader = createInterface({ input, output, terminal: true });
      let settled = false;
      const onAbort = (): void => {
        settle({ kind: "cancel" });
      };
      // After Ctrl-Z and `fg` the question is asked again, in raw mode, and still waits.
      const endJobControl = stopAndContinue(reader, {
        release: () => input.setRawMode?.(false),
        retake: () => {
          reapplyRawMode(input);
          reader.prompt(true);
        },
      });
      const settle = (answer: Answer): void => {
        if (settled) return;
        settled = true;
        endJobControl();
        signal?.removeEventListener("abort", onAbort);
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
      signal?.addEventListener("abort", onAbort, { once: true });
      // The question is readline's own prompt so that redrawing the line while typing keeps it.
      output.write(details);
      reader.setPrompt(question);
      reader.prompt();
    });
  }
}

/**
 * Reads and drops whatever is already waiting on the terminal, until it has been quiet for a
 * moment. A Ctrl-C among the dropped keys still cancels: the person meant it.
 */
async function discardTypeAhead(input: TerminalInput): Promise<"cancel" | undefined> {
  const raw = typeof input.setRawMode === "function";
  if (raw) input.setRawMode?.(true);
  const dropped = { ctrlC: false };
  const onData = (chunk: Buffer | string): void => {
    if (chunk.toString().includes(CTRL_C)) dropped.ctrlC = true;
    quiet.refresh();
  };
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const quiet = setTimeout(finish, TYPE_AHEAD_QUIET_MS);
  const deadline = setTimeout(finish, TYPE_AHEAD_MAX_MS);
  input.on("data", onData);
  input.resume();
  await done;
  clearTimeout(quiet);
  clearTimeout(deadline);
  input.removeListener("data", onData);
  input.pause();
  if (raw) input.setRawMode?.(false);
  return dropped.ctrlC ? "cancel" : undefined;
}

/**
 * Cut once, from the whole arguments, so the count of characters not shown is all of them. In
 * pieces: the note of what is left out is kept whole on a row.
 */
function displayArguments(
  request: PermissionRequest,
  maxChars = MAX_ARGUMENT_CHARS,
  tailChars = KEPT_TAIL_CHARS,
): LinePiece[] {
  const json = JSON.stringify(collapseHiddenValues(request.call.arguments));
  const parts =
    request.call.effect === "execute" ? undefined : elideMiddleParts(json, maxChars, tailChars);
  if (parts === undefined) return [{ text: json }];
  return [
    { text: `${parts.head} ` },
    { text: parts.note, whole: true },
    { text: ` ${parts.tail}` },
  ];
}

/**
 * Runs of blank or invisible characters in every string, shown as a count (`⟨4100 spaces⟩`,
 * `⟨3000 × U+3164⟩`), so padding cannot push the rest of a value out of sight.
 */
function collapseHiddenValues(value: unknown): unknown {
  if (typeof value === "string") return collapseHiddenRuns(value);
  if (Array.isArray(value)) return value.map(collapseHiddenValues);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, collapseHiddenValues(inner)]),
    );
  }
  return value;
}

/** The bytes (UTF-8) and lines of a write_file's whole content; undefined for any other call. */
function writeSize(request: PermissionRequest): { bytes: number; lines: number } | undefined {
  const content = request.toolName === "write_file" ? request.call.arguments.content : undefined;
  if (typeof content !== "string") return undefined;
  const breaks = content.match(/\n/gu)?.length ?? 0;
  const lines = content === "" || content.endsWith("\n") ? breaks : breaks + 1;
  return { bytes: Buffer.byteLength(content, "utf8"), lines };
}

/** The file a call works on, if it names one: shown whole on a line of its own. */
function targetPath(request: PermissionRequest): string | undefined {
  if (request.call.effect === "execute") return undefined;
  const args: unknown = request.call.arguments;
  if (typeof args !== "object" || args === null || !("path" in args)) return undefined;
  return typeof args.path === "string" ? args.path : undefined;
}

/**
 * A path whole: only runs of separators (which name no folder) and of hidden characters are
 * counted, so `a/////…/.envrc` still ends in `.envrc` beside the question.
 */
function displayPath(path: string): string {
  return collapseHiddenRuns(path).replace(SEPARATOR_RUN, (run) =>
    /^\/+$/u.test(run) ? `⟨${run.length} slashes⟩` : `⟨${run.length} separators⟩`,
  );
}

const SEPARATOR_RUN = /[\\/]{32,}/gu;

/** Longer commands get their start and end repeated; each part this many characters. */
const RECAP_AFTER_CHARS = 600;
const RECAP_PART_CHARS = 160;

function commandRecap(request: PermissionRequest, shownArguments: string): string | undefined {
  if (request.call.effect !== "execute") return undefined;
  const characters = Array.from(shownArguments);
  if (characters.length <= RECAP_AFTER_CHARS) return undefined;
  const head = characters.slice(0, RECAP_PART_CHARS).join("");
  const tail = characters.slice(-RECAP_PART_CHARS).join("");
  const between = characters.length - 2 * RECAP_PART_CHARS;
  return `${head} … (${between} more characters, shown above) … ${tail}`;
}

/** Harness or model text on one prompt line: hidden runs counted, then every escape made visible. */
const shown = escapeForPrompt;

/** `a` or `always`: this exact action, for the rest of the run. */
export function isForRun(answer: string): boolean {
  const normalized = answer.trim().toLowerCase();
  return normalized === "a" || normalized === "always";
}

/** `v` (or `view`): show the whole change before answering. */
export function isView(answer: string): boolean {
  const normalized = answer.trim().toLowerCase();
  return normalized === "v" || normalized === "view";
}

export function isYes(answer: string): boolean {
  const normalized = answer.trim().toLowerCase();
  return normalized === "y" || normalized === "yes";
}

/** One line of the prompt and how it may be broken into rows. */
type Row =
  | { readonly kind: "words"; readonly line: string }
  | { readonly kind: "pieces"; readonly pieces: readonly LinePiece[] };

/**
 * Every model-supplied value is JSON-encoded, then escaped, so it cannot repaint the terminal; runs
 * of blank or invisible characters are counted first, so they cannot push text off the screen.
 */
export function renderApprovalPrompt(
  request: PermissionRequest,
  lang: Language,
  columns?: number,
  diff?: readonly string[],
  changeLabel?: string,
): { details: string; question: string; argumentsCut: boolean } {
  const labels = APPROVAL_LABELS[lang];
  const reason = request.proposedDecision?.reason ?? "";
  // With a diff above, the arguments are only a reminder: shortened further, so the tool, the
  // path and the question stay on the screen with the end of the diff.
  const argumentPieces =
    diff === undefined
      ? displayArguments(request)
      : displayArguments(request, ARGUMENTS_BESIDE_DIFF_CHARS, KEPT_TAIL_BESIDE_DIFF);
  const shownArguments = argumentPieces.map((piece) => piece.text).join("");
  // Prose (the harness's words, a reason) breaks between words; the model's JSON, a path and a
  // command anywhere (a blank dropped at a row's end would be a character of theirs unseen).
  const inWords = (line: string): Row => ({ kind: "words", line });
  const anywhere = (...pieces: LinePiece[]): Row => ({ kind: "pieces", pieces });
  const lines: Row[] = [
    inWords(""),
    inWords(`${labels.title}: ${shown(request.toolName)}`),
    inWords(`${labels.reason}: ${shown(reason)}`),
    anywhere(
      { text: `${labels.arguments}: ` },
      ...argumentPieces.map((piece) => ({ ...piece, text: escapeForTerminal(piece.text) })),
    ),
  ];
  // Arguments cut short (or their blank runs counted) no longer show how much a write writes:
  // then its whole size is said. Shown whole, they need no such line (the tutorial's prompt).
  const size = writeSize(request);
  if (size !== undefined && shownArguments !== JSON.stringify(request.call.arguments)) {
    lines.push(inWords(labels.writes(size.bytes, size.lines)));
  }
  // Left out, not only counted: a run of blanks shown as `⟨40 spaces⟩` is shown whole already.
  const argumentsCut =
    shownArguments !== JSON.stringify(collapseHiddenValues(request.call.arguments));
  // A command is shown whole, so a long one could still push its own start off the screen (padded
  // with sparse visible characters, say): its start and end are repeated beside the question.
  const recap = commandRecap(request, shownArguments);
  if (recap !== undefined) {
    lines.push(anywhere({ text: `${labels.startAndEnd}: ${escapeForTerminal(recap)}` }));
  }
  // Contents may be shortened in the middle; the file they go to never is.
  const path = targetPath(request);
  if (path !== undefined) {
    // Through a link, the file the write really lands on, from the check that decided.
    const lands =
      request.landsOn === undefined
        ? ""
        : ` → ${escapeForTerminal(JSON.stringify(displayPath(request.landsOn)))}`;
    lines.push(
      anywhere({
        text: `${labels.path}: ${escapeForTerminal(JSON.stringify(displayPath(path)))}${lands}`,
      }),
    );
  }
  // A line of its own after the tutorial's lines: `Remove-Item x` or `rm x` may be either shell's.
  const shell = request.call.finalArguments?.shell;
  if (typeof shell === "string") lines.push(inWords(`${labels.shell}: ${shown(shell)}`));
  if (request.executionEnvironment !== undefined) {
    lines.push(inWords(`${labels.runsIn}: ${shown(request.executionEnvironment)}`));
  }
  // Wrapped rows of a long value are indented: only the harness's labels start at column 0.
  const layout = { columns, first: "", rest: MODEL_INDENT };
  const rows = lines.map((row) => {
    switch (row.kind) {
      case "words":
        return layOutWords(row.line, layout);
      case "pieces":
        return layOutPieces(row.pieces, layout);
    }
  });
  const above = diff === undefined ? [] : ["", `${changeLabel ?? labels.change}:`, ...diff];
  return {
    details: `${[...above, ...rows].join("\n")}\n`,
    question: labels.question,
    argumentsCut,
  };
}

/**
 * Every argument whole, for `v` where no diff could be shown: a string line by line under its
 * key, escaped, its wrapped rows indented; anything else as JSON.
 */
function wholeArgumentRows(request: PermissionRequest, columns: number | undefined): string[] {
  const shown = (text: string): string => escapeForTerminal(collapseHiddenRuns(text));
  return Object.entries(request.call.arguments).flatMap(([key, value]) => {
    // The key, the schema's own word, starts at column 0; the value's lines are indented, the
    // indent put before the escaped text so that a run of blanks it starts with is counted alone.
    if (typeof value !== "string") {
      return [
        layOutLine(`${key}: ${shown(JSON.stringify(value))}`, {
          columns,
          first: "",
          rest: MODEL_INDENT,
        }),
      ];
    }
    return [
      `${key}:`,
      ...value
        .split("\n")
        .map((line) =>
          layOutLine(shown(line), { columns, first: MODEL_INDENT, rest: `${MODEL_INDENT} ` }),
        ),
    ];
  });
}
