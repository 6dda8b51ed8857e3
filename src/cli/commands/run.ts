import { realpath, stat } from "node:fs/promises";
import { JsonlAuditLog } from "../../adapters/audit/index.js";
import {
  displayURL,
  ModelConfigError,
  OpenAIChatModelClient,
  RecordingModelClient,
  ReplayModelClient,
  resolveOpenAIConfig,
} from "../../adapters/model/index.js";
import { firstLineOfError } from "../../core/common/one-line.js";
import { startShellExecution, type ShellExecution } from "../../adapters/execution/index.js";
import {
  agentInstallPaths,
  HarnessFileError,
  NodeWorkspaceFileSystem,
  WorkspaceOutputStore,
} from "../../adapters/filesystem/index.js";
import { ShellUnavailableError } from "../../adapters/shell/index.js";
import { BootstrapError, buildAgent } from "../../bootstrap/build-agent.js";
import {
  AgentRunError,
  RunCancelledError,
  RunWaitingError,
} from "../../core/runner/agent-errors.js";
import { CommandAllowlistError } from "../../adapters/commands/index.js";
import { RunJournalError, RunLockedError } from "../../adapters/journal/index.js";
import { ApprovalStoreError, StateDirectoryError } from "../../adapters/state/index.js";
import { p04Approver, p04Dependencies } from "../p04-run.js";
import { waitingMessage } from "../terminal/waiting-message.js";
import type { AuditSink } from "../../core/policy/audit.js";
import { CompositeAuditSink } from "../../core/policy/composite-audit-sink.js";
import type { ModelClient } from "../../core/ports/model.js";
import { profileForChapter } from "../../core/profiles.js";
import type { CliOptions } from "../args.js";
import { CliConfigError } from "../config-error.js";
import { EXIT } from "../exit-codes.js";
import { FirstReplyGate } from "../first-reply-gate.js";
import { ProgressReporter, useColor } from "../terminal/progress-reporter.js";
import { TerminalApprovalProvider } from "../terminal/terminal-approval.js";
import { TerminalAuditSink } from "../terminal/terminal-audit.js";
import { loadMarkdownView } from "../terminal/load-markdown-view.js";
import { withTextDeltas } from "../text-delta-model.js";
import { TurnCancellation, runConversation } from "../terminal/conversation.js";
import type { RunResult } from "../../core/runner/agent-runner.js";
import type { Message } from "../../core/ports/messages.js";
import { previewWith } from "../terminal/file-change-preview.js";
import { CommandStatus } from "../terminal/command-status.js";
import { escapeForPrompt } from "../terminal/terminal-text.js";
import type { CliIo } from "../cli-io.js";
import { openRunStore } from "../run-store.js";
import { openJournalSession, type JournalSession, type ResumePlan } from "../journal-session.js";
import { withCrashHook } from "../crash-hook.js";

/**
 * One run, new or resumed (`resume`: from `agent resume`, which picked and locked it): every step
 * journaled under the workspace's state directory before it happens. Returns the exit code.
 */
export async function runAgent(
  options: CliOptions,
  io: CliIo,
  resume: ResumePlan | undefined,
): Promise<number> {
  const fail = (code: number, message: string): number => {
    io.stderr.write(`agent: ${escapeForPrompt(message)}\n`);
    return code;
  };
  const reporter = new ProgressReporter({
    output: io.stderr,
    verbosity: options.quiet ? "quiet" : options.verbose ? "verbose" : "normal",
    color: useColor(io.stderr, io.env),
  });
  const cancel = new TurnCancellation();
  io.interrupts.on("SIGINT", () => {
    cancel.abort();
  });
  let session: JournalSession | undefined;
  try {
    const workspace = await resolveWorkspace(options.workspace);
    // Journals live outside the workspace, in a directory no file tool or command may touch.
    const store = openRunStore(options.stateDir, io, workspace);
    // The harness's own files (recording, journal, audit log) are opened once, first, before any
    // command could swap their names; their real paths are then protected from the file tools and
    // read-only in the sandbox.
    const model = createModelClient(options, io.env, io.platform);
    const profile = profileForChapter(options.chapter);
    session = openJournalSession(
      store,
      {
        chapter: options.chapter,
        profile: profile.id,
        model: model.name,
        workspace,
        policy: `chapter ${options.chapter}; sandbox ${options.sandbox}${options.network ? " with network" : ""}`,
        sandbox: options.sandbox,
        network: options.network,
      },
      resume,
    );
    resume = undefined; // the session owns its lock now
    const auditLog =
      options.auditLog === undefined
        ? undefined
        : new JsonlAuditLog({
            path: options.auditLog,
            chapter: options.chapter,
            runId: session.runId,
          });
    const outputs = WorkspaceOutputStore.open(workspace);
    // The agent's own install too (dist/, scripts/, package.json, node_modules, …): when the
    // workspace holds it (its own clone), a command that changed it would run on the host at the
    // next start. Protected by real path: the whole directory, not only files.
    const harnessFiles = [
      auditLog?.realPath,
      model.recordingPath,
      outputs.realPath,
      store.stateRoot,
      ...agentInstallPaths(import.meta.url, PACKAGE_NAME),
    ].filter((path): path is string => path !== undefined);
    // On a terminal, say first where the agent works and whom it asks, so a wrong directory or
    // endpoint is caught before anything happens. Never on stdout: that is the answer's alone.
    if (io.stderr.isTTY === true && !options.quiet) {
      io.stderr.write(
        `agent: ${escapeForPrompt(`workspace ${workspace} · ${model.description}`)}\n`,
      );
    }
    const shell = await startShellExecution({
      sandbox: options.sandbox,
      network: options.network,
      shell: options.shell,
      workspace,
      env: io.env,
      platform: io.platform,
      passEnv: options.passEnv,
      harnessFiles,
      hiddenPaths: [store.stateRoot],
    });
    // The sandbox probe may still be running: the first model request goes out meanwhile, and its
    // reply waits for the probe, so every tool call is decided on the final environment.
    const ready = shell.ready.then((decided) => {
      warnOnFallback(decided, options, io);
    });
    const terminalApproval = new TerminalApprovalProvider({
      input: io.stdin,
      output: io.stderr,
      lang: options.lang,
      get signal() {
        return cancel.signal;
      },
      onCancel: () => {
        cancel.abort();
      },
      previewChange: previewWith(new NodeWorkspaceFileSystem(workspace, { harnessFiles })),
      color: useColor(io.stderr, io.env),
    });
    // Chapter 4: an allowlist and a grant store; with nobody at a terminal, an ask waits.
    const p04 =
      options.chapter === 4
        ? p04Dependencies({
            workspace,
            network: options.network,
            io,
            execution: await shell.ready,
            runId: session.runId,
            ...(options.stateDir === undefined ? {} : { stateDir: options.stateDir }),
          })
        : undefined;
    const approvalProvider =
      p04 === undefined
        ? terminalApproval
        : p04Approver(isInteractive(io), terminalApproval, io.stderr);
    const agent = buildAgent(profile, {
      model: withTextDeltas(new FirstReplyGate(model.client, ready), (text) => {
        reporter.onTextDelta(text);
      }),
      workspace,
      harnessFiles,
      commandRunner: new CommandStatus({
        output: io.stderr,
        verbosity: options.quiet ? "quiet" : options.verbose ? "verbose" : "normal",
        color: useColor(io.stderr, io.env),
      }).around(shell.runner),
      executionEnvironment: shell.environment,
      ...(approvalProvider === undefined ? {} : { approvalProvider }),
      ...(p04 === undefined ? {} : { p04 }),
      auditSink: createAuditSink(auditLog, io.stderr),
      maxTurns: options.maxTurns,
      observer: reporter,
      outputs,
      journal: withCrashHook(session.journal, io.env),
    });
    const renderMarkdown = io.stdout.isTTY === true ? await loadMarkdownView() : undefined;
    const showResult = (result: RunResult): void => {
      reporter.finish(result.turns, result.usage);
      // On a terminal the answer's markdown is laid out (markdown-view.ts); it must not be able to
      // clear the screen and hide the audit lines, nor print a line that passes for one: it is
      // escaped and indented, so only the harness writes at column 0. Piped, it stays byte for
      // byte what the model wrote, for the scripts that read it.
      const answer =
        renderMarkdown !== undefined
          ? renderMarkdown(result.finalText, {
              color: useColor(io.stdout, io.env),
              columns: io.stdout.columns,
            })
          : result.finalText;
      io.stdout.write(`${answer}\n`);
    };
    const replayed = session.resumed;
    // On a terminal a resumed run goes on as a conversation once it has its answer.
    if (options.prompt === undefined && (replayed === undefined || isInteractive(io))) {
      // Nothing is in flight while the person types: let the sandbox check finish first, so a
      // fallback warning comes before the first "> " prompt, not in the middle of it.
      await ready;
      let history: readonly Message[] | undefined;
      if (replayed !== undefined) {
        const result = await agent.resume(replayed.history, replayed.openCalls, cancel.signal);
        showResult(result);
        history = result.history;
      }
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
      });
      return EXIT.ok;
    }
    showResult(
      replayed === undefined
        ? await agent.run(options.prompt ?? "", cancel.signal)
        : await agent.resume(replayed.history, replayed.openCalls, cancel.signal),
    );
    return EXIT.ok;
  } catch (error) {
    reporter.dispose();
    if (error instanceof RunCancelledError || cancel.signal.aborted) {
      return fail(EXIT.cancelled, "cancelled");
    }
    if (error instanceof RunWaitingError) {
      io.stderr.write(waitingMessage(error, session?.runId));
      return EXIT.waiting;
    }
    if (isConfigurationError(error)) return fail(EXIT.config, firstLineOfError(error));
    if (error instanceof AgentRunError) return fail(EXIT.runFailed, firstLineOfError(error));
    return fail(EXIT.runFailed, `unexpected error: ${firstLineOfError(error)}`);
  } finally {
    session?.close();
    resume?.lock.release();
  }
}

interface ChosenModel {
  readonly client: ModelClient;
  /** The model's name, for the run journal. */
  readonly name: string;
  /** For the run's first line: which model, served from where. */
  readonly description: string;
  /** The recording's real path, a harness-owned file, when `--record` is given. */
  readonly recordingPath?: string;
}

function createModelClient(
  options: CliOptions,
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform,
): ChosenModel {
  let chosen: ChosenModel;
  if (options.replay === undefined) {
    const config = resolveOpenAIConfig(env, { model: options.model, platform });
    chosen = {
      client: new OpenAIChatModelClient(config),
      name: config.model,
      description: `model ${config.model} · endpoint ${displayURL(config.baseURL)}`,
    };
  } else {
    chosen = {
      client: ReplayModelClient.fromFile(options.replay, { lenient: options.replayLenient }),
      name: `replay of ${options.replay}`,
      description: `model replayed from ${options.replay}`,
    };
  }
  if (options.record === undefined) return chosen;
  const recording = new RecordingModelClient(chosen.client, options.record);
  return { ...chosen, client: recording, recordingPath: recording.realPath };
}

/**
 * Only on Linux is the fallback news: elsewhere there is no sandbox to miss, and the prompt's
 * "Runs in" line already says so.
 */
function warnOnFallback(shell: ShellExecution, options: CliOptions, io: CliIo): void {
  if (shell.fallbackReason !== undefined && io.platform === "linux" && !options.quiet) {
    io.stderr.write(`agent: warning: ${escapeForPrompt(shell.fallbackReason)}\n`);
  }
}

/** The durable JSON log first: a decision that cannot be recorded must not be shown as taken. */
function createAuditSink(
  auditLog: JsonlAuditLog | undefined,
  stderr: NodeJS.WritableStream,
): AuditSink {
  const terminal = new TerminalAuditSink(stderr);
  if (auditLog === undefined) return terminal;
  return new CompositeAuditSink([auditLog, terminal]);
}

export async function resolveWorkspace(path: string): Promise<string> {
  let resolved: string;
  try {
    resolved = await realpath(path);
  } catch {
    throw new CliConfigError(`workspace does not exist: ${path}`);
  }
  if (!(await stat(resolved)).isDirectory()) {
    throw new CliConfigError(`workspace is not a directory: ${path}`);
  }
  return resolved;
}

export function isInteractive(io: CliIo): boolean {
  return io.stdin.isTTY === true && (io.stderr as { isTTY?: boolean }).isTTY === true;
}

function isConfigurationError(error: unknown): boolean {
  return (
    error instanceof CliConfigError ||
    error instanceof ModelConfigError ||
    error instanceof HarnessFileError ||
    error instanceof ShellUnavailableError ||
    error instanceof CommandAllowlistError ||
    error instanceof StateDirectoryError ||
    error instanceof ApprovalStoreError ||
    error instanceof RunJournalError ||
    error instanceof RunLockedError ||
    error instanceof BootstrapError
  );
}

const PACKAGE_NAME = "agent-harness";
