/**
 * The terminal's side of a run: the progress reporter, Ctrl-C, and the ports the composition root
 * is handed (the approval prompt, the `[Permission]` lines, the command status line, the first
 * line that says where the agent works). Every mode shows a run through one of these.
 */
import type { RunPorts } from "../../bootstrap.js";
import type { ApprovalProvider } from "../../core/policy/approval.js";
import type { WorkspaceFileSystem } from "../../core/ports/filesystem.js";
import type { ApprovalMode } from "../../core/profiles.js";
import type { AgentObserver, RunResult } from "../../core/runner/agent-runner.js";
import type { CliOptions } from "../args.js";
import type { CliIo } from "../cli-io.js";
import { sayAgent } from "../terminal/render/agent-line.js";
import { CommandStatus } from "../terminal/progress/command-status.js";
import { TurnCancellation } from "../terminal/input/conversation.js";
import { previewWith } from "../terminal/approval/file-change-preview.js";
import { loadMarkdownView } from "../terminal/render/load-markdown-view.js";
import { p04Approver } from "../terminal/approval/p04-terminal-approval.js";
import { ProgressReporter, useColor } from "../terminal/progress/progress-reporter.js";
import { TerminalApprovalProvider } from "../terminal/approval/terminal-approval.js";
import { TerminalAuditSink } from "../terminal/approval/terminal-audit.js";
import { scriptApproval } from "../terminal/approval/script-approval.js";

/** The task is the command line's; what a shell pipes in is neither task nor context. */
export const PIPED_NOT_READ =
  'standard input is a pipe or a file, which the agent does not read: save text for it to a file and mention it (agent "review @changes.diff")';

export class RunTerminal {
  readonly reporter: ProgressReporter;
  /** Ctrl-C: ends the turn in flight (and the run, outside a conversation). */
  readonly cancel = new TurnCancellation();
  readonly #options: CliOptions;
  readonly #io: CliIo;

  constructor(options: CliOptions, io: CliIo) {
    this.#options = options;
    this.#io = io;
    this.reporter = new ProgressReporter({
      output: io.stderr,
      verbosity: this.#verbosity(),
      color: useColor(io.stderr, io.env),
    });
    io.interrupts.on("SIGINT", () => {
      this.cancel.abort();
    });
  }

  /**
   * Whether a person answers prompts here: stdin and stderr on a terminal, and stdout not for a
   * script (`--output-format json|stream-json` never asks, wherever its streams go).
   */
  get interactive(): boolean {
    return this.#options.outputFormat === "text" && isInteractive(this.#io);
  }

  /** What the composition root is handed; `observer`: who follows the run's events. */
  ports(workspace: string, observer: AgentObserver): RunPorts {
    const { io } = this;
    const options = this.#options;
    return {
      // On a terminal, say first where the agent works and whom it asks, so a wrong directory
      // or endpoint is caught before anything happens. Never on stdout: that is the answer's.
      announce: (profile, model, instructions) => {
        if (options.quiet) return;
        if (io.stdinPiped === true) sayAgent(io.stderr, `warning: ${PIPED_NOT_READ}`);
        if (io.stderr.isTTY === true) {
          const first = `workspace ${workspace} · ${profile} · ${model}`;
          sayAgent(io.stderr, instructions === undefined ? first : `${first} · ${instructions}`);
        } else if (instructions !== undefined) {
          sayAgent(io.stderr, instructions);
        }
      },
      onMcpNotice: (line) => {
        sayAgent(io.stderr, `warning: ${line}`);
      },
      onExecutionDecided: (fallbackReason, notices) => {
        this.#warnOnFallback(fallbackReason, notices);
      },
      approver: (mode, preview) => this.#approver(mode, preview),
      terminalAudit: new TerminalAuditSink(io.stderr),
      observer,
      onTextDelta: (text) => {
        this.reporter.onTextDelta(text);
      },
      onModelRetry: (notice) => {
        this.reporter.onModelRetry(notice);
      },
      aroundRunner: (runner) =>
        new CommandStatus({
          output: io.stderr,
          verbosity: this.#verbosity(),
          color: useColor(io.stderr, io.env),
        }).around(runner),
    };
  }

  /**
   * How an answer is shown, then the closing line under it: the line that says the run is done
   * comes last. On a terminal the answer's markdown is laid out (markdown-view.ts); it must not be
   * able to clear the screen and hide the audit lines, nor print a line that passes for one: it
   * is escaped and indented, so only the harness writes at column 0. Piped, it stays byte for
   * byte what the model wrote, for the scripts that read it.
   */
  async answerShower(): Promise<(result: RunResult) => void> {
    const { io, reporter } = this;
    const renderMarkdown = io.stdout.isTTY === true ? await loadMarkdownView() : undefined;
    return (result) => {
      const answer =
        renderMarkdown !== undefined
          ? renderMarkdown(result.finalText, {
              color: useColor(io.stdout, io.env),
              columns: io.stdout.columns,
              streamed: reporter.lastAnswer,
            })
          : result.finalText;
      io.stdout.write(`${answer}\n`);
      reporter.finish(result.turns, result.usage);
    };
  }

  get io(): CliIo {
    return this.#io;
  }

  #verbosity(): "quiet" | "verbose" | "normal" {
    return this.#options.quiet ? "quiet" : this.#options.verbose ? "verbose" : "normal";
  }

  /**
   * Who answers an `ask`: the person at the terminal; with grants (P04), the person when there
   * is one at a terminal, else nobody and the run waits for `agent approve`. For a script
   * (`--output-format json|stream-json`) nobody: denied, or with grants the run waits.
   */
  #approver(mode: ApprovalMode, preview: WorkspaceFileSystem): ApprovalProvider | undefined {
    const { io, cancel } = this;
    if (mode === "terminal" && this.#options.outputFormat !== "text") return scriptApproval;
    const terminal = new TerminalApprovalProvider({
      input: io.stdin,
      output: io.stderr,
      lang: this.#options.lang,
      get signal() {
        return cancel.signal;
      },
      onCancel: () => {
        cancel.abort();
      },
      previewChange: previewWith(preview),
      color: useColor(io.stderr, io.env),
    });
    switch (mode) {
      case "terminal":
        return terminal;
      case "grants":
        return p04Approver(this.interactive, terminal, io.stderr);
    }
  }

  /**
   * Only on Linux is the fallback news: elsewhere there is no sandbox to miss, and the prompt's
   * "Runs in" line already says so.
   */
  #warnOnFallback(fallbackReason: string | undefined, notices: readonly string[]): void {
    const { io } = this;
    if (this.#options.quiet) return;
    if (fallbackReason !== undefined && io.platform === "linux") {
      sayAgent(io.stderr, `warning: ${fallbackReason}`);
    }
    for (const notice of notices) sayAgent(io.stderr, `warning: ${notice}`);
  }
}

export function isInteractive(io: CliIo): boolean {
  return io.stdin.isTTY === true && (io.stderr as { isTTY?: boolean }).isTTY === true;
}
