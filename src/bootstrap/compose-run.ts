/**
 * The composition root of a run, new or resumed: from plain settings and the terminal's ports it
 * opens the harness's own files, the journal and the execution environment, and builds the agent.
 * `agent explain` builds its tool path from the same pieces (compose-explain.ts).
 */
import { join } from "node:path";
import { JsonlAuditLog } from "../adapters/audit/index.js";
import { ensureHarnessDirectory, shellCommandBinding } from "../adapters/commands/index.js";
import type { StartedShellExecution } from "../adapters/execution/index.js";
import {
  NodeWorkspaceFileSystem,
  prepareFileOperations,
  WorkspaceOutputStore,
} from "../adapters/filesystem/index.js";
import { DEFAULT_GRANT_TTL_MS } from "../adapters/state/index.js";
import type { AuditSink } from "../core/policy/audit.js";
import { CompositeAuditSink } from "../core/policy/composite-audit-sink.js";
import type { AgentRunner } from "../core/runner/agent-runner.js";
import { openApprovalStore } from "./open/approval-state.js";
import type { RunGrants } from "../core/policy/run-grants.js";
import type { PersonalRuleSpec } from "../core/policy/personal-rules.js";
import { runGrantJournal } from "./run-grant-journal.js";
import { buildAgent } from "./build-agent.js";
import { withCrashHook } from "./crash-hook.js";
import { afterThisTurn, WhileModelWaits } from "./model/while-model-waits.js";
import { harnessPaths } from "./harness-paths.js";
import { hostFilesOnce, sandboxHostFiles } from "./host-files.js";
import { assertHomeWorkspaceAllowed } from "./home-workspace.js";
import { openJournalSession, type JournalSession } from "./open/journal-session.js";
import { createModelClient } from "./model/model-client.js";
import { allowedArgvOf, p04Dependencies } from "./p04-run.js";
import { networkNoticeGateFor, openProbeVerdictCache } from "./open/probe-verdict-cache.js";
import { loadRunInstructions } from "./open/project-instructions.js";
import { defaultContextWindow } from "../core/context/context-budget.js";
import { profileLabel } from "../core/profiles.js";
import { startRunExecution } from "./execution/run-execution.js";
import type { RunPorts, RunSettings } from "./run-settings.js";
import { openRunStore } from "./open/run-store.js";
import type { SwitchableModel } from "./model/switchable-model.js";
import { withTextDeltas } from "./model/text-delta-model.js";
import { startExternalTools, type StartedExternalTools } from "./external-tools.js";
import type { McpServerState } from "../adapters/mcp/index.js";
import { recordsOfLiveJournal, undoInRun, type UndoReport } from "./undo-run.js";
import { commandEnvironmentMayHold } from "../adapters/shell/index.js";

export interface ComposedRun {
  readonly agent: AgentRunner;
  /** The run's journal: its id, and for a resumed run what the journal says so far. */
  readonly session: JournalSession;
  readonly execution: StartedShellExecution;
  /**
   * Starts the sandbox check if nothing has started it yet, and settles once it has decided (a
   * command waits for it too; a model reply never does).
   */
  sandboxDecided(): Promise<void>;
  readonly outputs: WorkspaceOutputStore;
  /** The harness's own paths this run protects. */
  readonly harnessFiles: readonly string[];
  /** The state root (real path): the conversation keeps its input history there. */
  readonly stateRoot: string;
  /** The provider's model, which `/model` switches; absent for a replayed recording. */
  readonly switchableModel: SwitchableModel | undefined;
  /**
   * What the person allowed with `a` in this run (profiles whose answers are `[y/N/a]`), for
   * `/permissions`; absent otherwise.
   */
  readonly runGrants: RunGrants | undefined;
  /** The person's own rules this run decides by (`/permissions` lists them); none for chapters. */
  readonly personalRules: readonly PersonalRuleSpec[];
  /**
   * `/undo [N]`: takes back the file changes of this run's last N calls (undo-run.ts), each
   * decision journaled and audited.
   */
  undo(count: number): Promise<UndoReport>;
  /** The run's MCP servers and their state now; empty when it started none (`/mcp`). */
  mcpServers(): readonly McpServerState[];
  /** Closes the journal and releases the run's lock; once, at the end, whatever happened. */
  close(): void;
}

export async function composeRun(settings: RunSettings, ports: RunPorts): Promise<ComposedRun> {
  const { profile, workspace, host } = settings;
  // Decided once: the variables a command's environment may hold, which make reads (bindings).
  const environmentMayHold = (name: string): boolean =>
    commandEnvironmentMayHold(name, { passEnv: settings.passEnv, platform: host.platform });
  let resume = settings.resume;
  let session: JournalSession | undefined;
  let mcp: StartedExternalTools | undefined;
  try {
    if (profile.homeWorkspace === "refused")
      assertHomeWorkspaceAllowed(workspace, host, settings.stateDir);
    // Journals live outside the workspace, in a directory no file tool or command may touch.
    const store = openRunStore(settings.stateDir, host, workspace);
    // The harness's own files (recording, journal, audit log) are opened once, first, before any
    // command could swap their names; their real paths are then protected from the file tools and
    // read-only in the sandbox.
    const model = createModelClient(settings.model, host, ports.onModelRetry);
    // AGENTS.md, read once, now: the journal records its digest so a resume can tell a change.
    const instructions = loadRunInstructions(workspace, settings.startDirectory, host);
    session = openJournalSession(
      store,
      {
        chapter: profile.chapter,
        profile: profile.id,
        model: model.name,
        workspace,
        policy: `chapter ${profile.chapter}; sandbox ${settings.sandbox}${settings.network ? " with network" : ""}`,
        sandbox: settings.sandbox,
        network: settings.network,
        commandTimeoutMs: settings.commandTimeoutMs,
        ...(instructions.loaded.digest === undefined
          ? {}
          : { instructionsDigest: instructions.loaded.digest }),
      },
      resume,
    );
    resume = undefined; // the session owns its lock now
    const auditLog =
      settings.auditLog === undefined
        ? undefined
        : new JsonlAuditLog({
            path: settings.auditLog,
            chapter: profile.chapter,
            runId: session.runId,
          });
    const outputs = WorkspaceOutputStore.open(workspace);
    const harnessFiles = harnessPaths({
      auditLog: auditLog?.realPath,
      recording: model.recordingPath,
      outputs: outputs.realPath,
      stateRoot: store.stateRoot,
    });
    // Worked out at the first write or command, or while the model thinks (below).
    const hostPaths = hostFilesOnce(host, workspace);
    // A resumed run keeps the instructions its journal recorded (resume says if they changed).
    ports.announce?.(
      profileLabel(settings.profile),
      model.description,
      session.resumed === undefined ? instructions.status : undefined,
    );
    const execution = await startRunExecution(settings, harnessFiles, [store.stateRoot], {
      hostFiles: sandboxHostFiles(workspace, hostPaths),
      placeholderLedger: join(store.workspaceState, "placeholders"),
      cacheDirectory: join(store.workspaceState, "sandbox-cache"),
      // A new run's first step is its model request: the probe starts while the model thinks,
      // or at the first command (or at once when the first request must wait for it); so does a
      // resumed run's with no call left to answer. One with open calls may run a command first,
      // and grants need the decision to build.
      probeOnDemand:
        profile.approvals !== "grants" &&
        (session.resumed?.openCalls ?? []).every((open) => open.state === "finished"),
      checkProcessLimit: true,
    });
    // The sandbox probe may still be running: the model's requests and replies go on meanwhile,
    // and a command waits for its decision (the environment's `decided()`, in the tool path).
    const ready = execution.ready.then((decided) => {
      if (decided.abandoned === true) return;
      ports.onExecutionDecided?.(decided.fallbackReason, decided.notices ?? []);
    });
    // Only a conversation awaits it (sandboxDecided); a failed notice must not end a run.
    ready.catch(() => undefined);
    const terminalOrNobody = ports.approver(
      profile.approvals,
      new NodeWorkspaceFileSystem(workspace, { harnessFiles, hostFiles: hostPaths }),
    );
    // Grants: an allowlist and a grant store; with nobody at a terminal, an ask waits. `.agent`
    // exists before any command runs, so the sandbox binds it read-only (command-allowlist.ts).
    if (profile.approvals === "grants") ensureHarnessDirectory(workspace);
    const grants =
      profile.approvals === "grants"
        ? p04Dependencies({
            workspace,
            environmentMayHold,
            allowedArgv: allowedArgvOf(workspace),
            network: settings.network,
            execution: await execution.ready,
            runId: session.runId,
            grants: openApprovalStore(
              workspace,
              settings.stateDir,
              host.env,
              host.platform,
              session.runId,
            ),
            grantTtlMs: DEFAULT_GRANT_TTL_MS,
          })
        : undefined;
    let runGrants: RunGrants | undefined;
    const journal = session.journal;
    const auditSink = auditSinkOf(auditLog, ports.terminalAudit);
    // The person's MCP servers, for a profile that lists their tools: started now, stopped with
    // the run; one that fails is a line, and its tools are left out.
    mcp = await startExternalTools(settings, (line) => ports.onMcpNotice?.(line));
    // While the model is slow to answer: the sandbox probe, then the tools' schemas (zod), the
    // file operations' module and the host's later-loaded paths.
    let whileWaiting: () => void = () => undefined;
    const agent = buildAgent(profile, {
      model: withTextDeltas(
        new WhileModelWaits(
          networkNoticeGateFor(model.client, execution, () =>
            openProbeVerdictCache(store.stateRoot, settings, execution),
          ),
          () => {
            whileWaiting();
          },
        ),
        (text) => {
          ports.onTextDelta?.(text);
        },
      ),
      workspace,
      harnessFiles,
      hostFiles: hostPaths,
      commandRunner: ports.aroundRunner?.(execution.runner) ?? execution.runner,
      executionEnvironment: execution.environment,
      ...(terminalOrNobody === undefined ? {} : { approvalProvider: terminalOrNobody }),
      ...(grants === undefined ? {} : { grants }),
      auditSink,
      maxTurns: settings.maxTurns,
      commandTimeoutMs: settings.commandTimeoutMs,
      ...(ports.observer === undefined ? {} : { observer: ports.observer }),
      outputs,
      journal: withCrashHook(session.journal, host.env),
      sandboxNetworkOff: execution.networkOff,
      instructions: instructions.loaded.text,
      contextWindow: settings.contextWindow ?? defaultContextWindow(model.name),
      runAnswers: {
        personalRules: settings.personalRules ?? [],
        boundScript: (command) => shellCommandBinding(workspace, command, environmentMayHold),
        observer: runGrantJournal(journal, auditSink),
        // The same run, resumed: what it allowed with `a` and did not take back.
        ...(session.resumed === undefined
          ? {}
          : {
              restoredGrants: {
                grants: session.resumed.runGrants,
                issued: session.resumed.runGrantsIssued,
              },
            }),
        onGrants: (made) => {
          runGrants = made;
        },
      },
      ...(mcp === undefined ? {} : { externalTools: mcp.tools }),
    });
    // The default window is the model's, so it follows a `/model` switch (a resumed run starts
    // on the switched model's); a window given with --context-window stays.
    if (settings.contextWindow === undefined) {
      model.switchable?.whenSwitched((name) => {
        agent.setContextWindow(defaultContextWindow(name));
      });
    }
    whileWaiting = () => {
      execution.startProbe();
      afterThisTurn(() => {
        try {
          agent.prepareTools();
        } catch {
          // zod's file could not be loaded: the first call meets the same error and reports it
        }
        void prepareFileOperations(workspace);
        model.prepare?.();
        try {
          hostPaths();
        } catch {
          // the first write or command asks again, meets the same error and is refused
        }
      });
    };
    const opened = session;
    const servers = mcp;
    return {
      agent,
      session: opened,
      execution,
      sandboxDecided: () => {
        execution.startProbe();
        return ready;
      },
      outputs,
      harnessFiles,
      stateRoot: store.stateRoot,
      switchableModel: model.switchable,
      runGrants,
      personalRules: profile.personalRules ? (settings.personalRules ?? []) : [],
      mcpServers: () => servers?.states() ?? [],
      undo: (count) =>
        undoInRun(
          {
            journalPath: journal.path,
            journal,
            workspace,
            harnessFiles,
            hostFiles: hostPaths,
            auditLog,
          },
          recordsOfLiveJournal(journal.path),
          count,
        ),
      close: () => {
        // A run that ran no command does not wait for the probe to end before it exits.
        execution.abandonProbe();
        void servers?.close();
        opened.close();
      },
    };
  } catch (error) {
    void mcp?.close();
    session?.close();
    resume?.lock.release();
    throw error;
  }
}

/** The durable JSON log first: a decision that cannot be recorded must not be shown as taken. */
function auditSinkOf(auditLog: JsonlAuditLog | undefined, terminal: AuditSink): AuditSink {
  if (auditLog === undefined) return terminal;
  return new CompositeAuditSink([auditLog, terminal]);
}
