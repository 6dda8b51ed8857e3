import { sayAgent } from "../terminal/agent-line.js";
import { ConfigurationError } from "../../core/common/configuration-error.js";
import { firstLineOfError } from "../../core/common/one-line.js";
import { composeRun, type ComposedRun, type ResumePlan, passEnvNotices } from "../../bootstrap.js";
import {
  AgentRunError,
  RunCancelledError,
  RunWaitingError,
} from "../../core/runner/agent-errors.js";
import { waitingMessage } from "../terminal/waiting-message.js";
import type { ApprovalMode } from "../../core/profiles.js";
import type { ApprovalProvider } from "../../core/policy/approval.js";
import type { WorkspaceFileSystem } from "../../core/ports/filesystem.js";
import { defaultWorkspace, type CliOptions } from "../args.js";
import { composedRunSettings } from "../settings/run-settings.js";
import { resolveWorkspace } from "../settings/workspace.js";
import { EXIT } from "../exit-codes.js";
import { ProgressReporter, useColor } from "../terminal/progress-reporter.js";
import { TerminalApprovalProvider } from "../terminal/terminal-approval.js";
import { TerminalAuditSink } from "../terminal/terminal-audit.js";
import { loadMarkdownView } from "../terminal/load-markdown-view.js";
import { TurnCancellation, runConversation } from "../terminal/conversation.js";
import type { RunResult } from "../../core/runner/agent-runner.js";
import type { Message } from "../../core/ports/messages.js";
import { previewWith } from "../terminal/file-change-preview.js";
import { CommandStatus } from "../terminal/command-status.js";
import { p04Approver } from "../terminal/p04-terminal-approval.js";
import type { CliIo } from "../cli-io.js";
import { contextCommandsOf } from "../modes/context-setup.js";
import { AgentLimitError } from "../../core/runner/agent-errors.js";
import { setUpConversation } from "../modes/conversation-setup.js";
import { bothObservers, ScriptOutput, type ScriptStatus } from "../modes/script-output.js";
import { everyCallDenied } from "../../core/tools/tool-outcome.js";
import { contextSlashCommands } from "../terminal/context-commands.js";

/**
 * One run, new or resumed (`resume`: from `agent resume`, which picked and locked it): every step
 * journaled under the workspace's state directory before it happens. The composition root builds
 * it (bootstrap/compose-run.ts); here are the terminal's pieces and the exit code.
 */
export async function runAgent(
  options: CliOptions,
  io: CliIo,
  resume: ResumePlan | undefined,
): Promise<number> {
  const fail = (code: number, message: string): number => {
    sayAgent(io.stderr, message);
    return code;
  };
  const verbosity = options.quiet ? "quiet" : options.verbose ? "verbose" : "normal";
  const reporter = new ProgressReporter({
    output: io.stderr,
    verbosity,
    color: useColor(io.stderr, io.env),
  });
  // A script reads stdout: --output-format json or stream-json (script-output.ts).
  const script =
    options.outputFormat === "text" ? undefined : new ScriptOutput(io.stdout, options.outputFormat);
  const cancel = new TurnCancellation();
  io.interrupts.on("SIGINT", () => {
    cancel.abort();
  });
  for (const notice of passEnvNotices(options.passEnv, io.env, io.platform)) {
    sayAgent(io.stderr, `warning: ${notice}`);
  }
  let run: ComposedRun | undefined;
  try {
    let workspace: string;
    try {
      workspace = resolveWorkspace(options.workspace);
    } catch (error) {
      resume?.lock.release();
      throw error;
    }
    const approver = (mode: ApprovalMode, preview: WorkspaceFileSystem) => {
      const terminal = new TerminalApprovalProvider({
        input: io.stdin,
        output: io.stderr,
        lang: options.lang,
        get signal() {
          return cancel.signal;
        },
        onCancel: () => {
          cancel.abort();
        },
        previewChange: previewWith(preview),
        color: useColor(io.stderr, io.env),
      });
      return answerer(mode, terminal, io);
    };
    run = await composeRun(
      composedRunSettings(
        options,
        { env: io.env, platform: io.platform },
        workspace,
        defaultWorkspace(io.env, io.cwd),
        resume,
      ),
      {
        // On a terminal, say first where the agent works and whom it asks, so a wrong directory
        // or endpoint is caught before anything happens. Never on stdout: that is the answer's.
        announce: (model, instructions) => {
          if (options.quiet) return;
          if (io.stderr.isTTY === true) {
            const first = `workspace ${workspace} · ${model}`;
            const line = instructions === undefined ? first : `${first} · ${instructions}`;
            sayAgent(io.stderr, line);
          } else if (instructions !== undefined) {
            sayAgent(io.stderr, instructions);
          }
        },
        onExecutionDecided: (fallbackReason, notices) => {
          warnOnFallback(fallbackReason, notices, options, io);
        },
        approver,
        terminalAudit: new TerminalAuditSink(io.stderr),
        observer: script === undefined ? reporter : bothObservers(reporter, script),
        onTextDelta: (text) => {
          reporter.onTextDelta(text);
        },
        onModelRetry: (notice) => {
          reporter.onModelRetry(notice);
        },
        aroundRunner: (runner) =>
          new CommandStatus({
            output: io.stderr,
            verbosity,
            color: useColor(io.stderr, io.env),
          }).around(runner),
      },
    );
    const { agent, session } = run;
    const renderMarkdown = io.stdout.isTTY === true ? await loadMarkdownView() : undefined;
    // The answer, then the closing line under it: the line that says the run is done comes last.
    const showResult = (result: RunResult): void => {
      // On a terminal the answer's markdown is laid out (markdown-view.ts); it must not be able to
      // clear the screen and hide the audit lines, nor print a line that passes for one: it is
      // escaped and indented, so only the harness writes at column 0. Piped, it stays byte for
      // byte what the model wrote, for the scripts that read it.
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
    const replayed = session.resumed;
    // On a terminal a resumed run goes on as a conversation once it has its answer.
    if (
      script === undefined &&
      options.prompt === undefined &&
      (replayed === undefined || isInteractive(io))
    ) {
      // Nothing is in flight while the person types: let the sandbox check finish first, so a
      // fallback warning comes before the first "> " prompt, not in the middle of it.
      await run.sandboxDecided();
      let history: readonly Message[] | undefined;
      if (replayed !== undefined) {
        const result = await agent.resume(replayed.history, replayed.openCalls, cancel.signal);
        showResult(result);
        history = result.history;
      }
      // The conversation's slash commands (/model and /clear go into the journal, so a resume
      // sees them) and its input history file.
      const conversation = setUpConversation({
        stateRoot: run.stateRoot,
        journal: session.journal,
        model: run.switchableModel,
        stderr: io.stderr,
        extraCommands: contextSlashCommands(contextCommandsOf(agent)),
      });
      try {
        await runConversation({
          ...(history === undefined ? {} : { history }),
          input: io.stdin,
          output: io.stderr,
          turns: cancel,
          runTurn: (text, signal, history) => agent.run(text, signal, history),
          showResult,
          onTurnFailed: () => {
            reporter.dispose();
          },
          commands: conversation.commands,
          ...(conversation.historyStore === undefined
            ? {}
            : { historyStore: conversation.historyStore }),
        });
      } finally {
        conversation.close();
      }
      return EXIT.ok;
    }
    const result =
      replayed === undefined
        ? await agent.run(options.prompt ?? "", cancel.signal)
        : await agent.resume(replayed.history, replayed.openCalls, cancel.signal);
    // Piped, nobody saw the denials: a script must be able to tell this answer from a success.
    const exitCode =
      !isInteractive(io) && everyCallDenied(result.outcomes) ? EXIT.allDenied : EXIT.ok;
    if (script === undefined) {
      showResult(result);
    } else {
      reporter.finish(result.turns, result.usage);
      script.finish({
        runId: run.session.runId,
        status: exitCode === EXIT.ok ? "completed" : "all_denied",
        exitCode,
        answer: result.finalText,
      });
    }
    return exitCode;
  } catch (error) {
    reporter.dispose();
    const ended = (code: number, status: ScriptStatus, message: string): number => {
      script?.finish({ runId: run?.session.runId, status, exitCode: code, error: message });
      return code;
    };
    if (error instanceof RunCancelledError || cancel.signal.aborted) {
      return ended(fail(EXIT.cancelled, "cancelled"), "cancelled", "cancelled");
    }
    if (error instanceof RunWaitingError) {
      io.stderr.write(waitingMessage(error, run?.session.runId));
      return ended(EXIT.waiting, "waiting", firstLineOfError(error));
    }
    if (error instanceof AgentLimitError && run !== undefined) {
      // Say how to go on: resume continues the same run with a fresh budget of turns.
      const message = `${firstLineOfError(error)}; to go on: agent resume ${run.session.runId} (a fresh budget of ${String(error.maxTurns)} turns)`;
      return ended(fail(EXIT.runFailed, message), "failed", message);
    }
    const message =
      error instanceof ConfigurationError || error instanceof AgentRunError
        ? firstLineOfError(error)
        : `unexpected error: ${firstLineOfError(error)}`;
    const code = error instanceof ConfigurationError ? EXIT.config : EXIT.runFailed;
    return ended(fail(code, message), "failed", message);
  } finally {
    run?.close();
  }
}

/**
 * Only on Linux is the fallback news: elsewhere there is no sandbox to miss, and the prompt's
 * "Runs in" line already says so.
 */
function warnOnFallback(
  fallbackReason: string | undefined,
  notices: readonly string[],
  options: CliOptions,
  io: CliIo,
): void {
  if (fallbackReason !== undefined && io.platform === "linux" && !options.quiet) {
    sayAgent(io.stderr, `warning: ${fallbackReason}`);
  }
  for (const notice of options.quiet ? [] : notices) {
    sayAgent(io.stderr, `warning: ${notice}`);
  }
}

/**
 * Who answers an `ask`: the person at the terminal; with grants (P04), the person when there is
 * one at a terminal, else nobody and the run waits for `agent approve`.
 */
function answerer(
  mode: ApprovalMode,
  terminal: ApprovalProvider,
  io: CliIo,
): ApprovalProvider | undefined {
  switch (mode) {
    case "terminal":
      return terminal;
    case "grants":
      return p04Approver(isInteractive(io), terminal, io.stderr);
  }
}

export function isInteractive(io: CliIo): boolean {
  return io.stdin.isTTY === true && (io.stderr as { isTTY?: boolean }).isTTY === true;
}
