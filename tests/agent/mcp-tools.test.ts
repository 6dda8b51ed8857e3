/**
 * The tools of a person's MCP server through the composed tool path (bootstrap's
 * startExternalTools and buildAgent, the real grant store, a real stdio server written with the
 * SDK): the tutorial's chapters never list them; chapter 4 denies one the allowlist does not
 * name, asks for one it names, and a server that dies mid-call leaves the call unknown while the
 * run goes on, and a resume does not call it again; the daily profile asks each call `[y/N/a]`,
 * where the person's own rules answer first and a deny wins.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ApprovalStore } from "../../src/adapters/state/index.js";
import type { McpServersSetting } from "../../src/adapters/settings/index.js";
import { buildAgent } from "../../src/bootstrap/build-agent.js";
import {
  EXTERNAL_TOOLS_ASK_PROMPT,
  EXTERNAL_TOOLS_PROMPT,
} from "../../src/bootstrap/system-prompt.js";
import {
  startExternalTools,
  type StartedExternalTools,
} from "../../src/bootstrap/external-tools.js";
import type { JournalRecord, RunJournal } from "../../src/core/journal/journal-records.js";
import { replayJournal } from "../../src/core/journal/journal-replay.js";
import type { ApprovalProvider } from "../../src/core/policy/approval.js";
import { PermissionDecision } from "../../src/core/policy/permission-decision.js";
import type { PermissionRequest } from "../../src/core/policy/permission-request.js";
import type { PersonalRuleSpec } from "../../src/core/policy/personal-rules.js";
import type { RunApprovalAnswer } from "../../src/core/policy/run-grants.js";
import { DAILY, P01, P02, P03, P04, type ChapterProfile } from "../../src/core/profiles.js";
import type { ToolOutcome } from "../../src/core/tools/tool-outcome.js";
import { NOTES_SERVER_COMMAND } from "../support/mcp-notes-server.js";
import { FixedEnvironment, RecordingAuditSink } from "../support/permission-fakes.js";
import { RecordingCommandRunner } from "../support/recording-command-runner.js";
import { ScriptedModelClient, textReply, toolCallReply } from "../support/scripted-model.js";
import { makeTempWorkspace, type TempWorkspace } from "../support/temp-workspace.js";
import { toolMessages } from "../support/tool-messages.js";

const SANDBOX = {
  kind: "isolated",
  network: "disabled",
  label: "sandbox: bwrap (network off)",
} as const;

class MemoryJournal implements RunJournal {
  readonly records: JournalRecord[] = [];
  append(record: JournalRecord): Promise<void> {
    this.records.push(structuredClone(record));
    return Promise.resolve();
  }
}

class OutcomeAudit extends RecordingAuditSink {
  readonly outcomes: ToolOutcome[] = [];
  recordOutcome(outcome: ToolOutcome): void {
    this.outcomes.push(outcome);
  }
}

let temp: TempWorkspace;
let store: ApprovalStore;
const started: StartedExternalTools[] = [];
/** Where the server writes what it was called with; emptied before each test. */
const logDirectory = mkdtempSync(join(tmpdir(), "mcp-notes-"));
const log = join(logDirectory, "notes.log");
/** One server for every test that does not kill it (starting one takes a second). */
let shared: StartedExternalTools | undefined;

beforeAll(async () => {
  shared = await servers(P04);
  started.splice(0);
});
afterAll(async () => {
  await shared?.close();
  rmSync(logDirectory, { recursive: true, force: true });
});
beforeEach(async () => {
  temp = await makeTempWorkspace();
  const state = join(temp.base, "state");
  mkdirSync(state, { mode: 0o700 });
  store = new ApprovalStore(state);
  writeFileSync(log, "");
});
afterEach(async () => {
  await Promise.all(started.splice(0).map((servers) => servers.close()));
  store.close();
  await temp.cleanup();
});

/** The shared server's tools under another allowlist. */
function sharedWith(allow: string[]): StartedExternalTools {
  if (shared === undefined) throw new Error("the shared server did not start");
  const { tools, notes } = shared.tools;
  return {
    tools: { tools, notes, allowed: (server, tool) => server === "notes" && allow.includes(tool) },
    states: () => [],
    close: () => Promise.resolve(),
  };
}

async function servers(profile: ChapterProfile, allow: string[] = []) {
  const setting: McpServersSetting = {
    notes: { ...NOTES_SERVER_COMMAND, env: { NOTES_LOG: log }, allow },
  };
  // The profile decides whether they start at all; P04 for the tutorial's chapters' test, so
  // that their tools exist and it is the profile that leaves them out.
  const tools = await startExternalTools(
    { profile, mcpServers: setting, workspace: logDirectory, host: { env: {}, platform: "linux" } },
    () => undefined,
  );
  if (tools !== undefined) started.push(tools);
  return tools;
}

function logged(): string[] {
  try {
    return readFileSync(log, "utf8").split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

function p04Agent(
  model: ScriptedModelClient,
  externalTools: StartedExternalTools | undefined,
  extra: { approver?: ApprovalProvider; audit?: OutcomeAudit; journal?: RunJournal } = {},
) {
  return buildAgent(P04, {
    model,
    workspace: temp.ws,
    commandRunner: new RecordingCommandRunner(),
    auditSink: extra.audit ?? new OutcomeAudit(),
    executionEnvironment: new FixedEnvironment(() => SANDBOX),
    ...(extra.approver === undefined ? {} : { approvalProvider: extra.approver }),
    ...(extra.journal === undefined ? {} : { journal: extra.journal }),
    ...(externalTools === undefined ? {} : { externalTools: externalTools.tools }),
    grants: {
      argvRunner: { run: () => Promise.reject(new Error("no command runs here")) },
      allowedArgv: [],
      grants: store,
      runId: "run-1",
      network: false,
      grantTtlMs: 60_000,
    },
  });
}

const write = (id: string) =>
  toolCallReply([{ id, name: "mcp__notes__write_note", arguments: { name: "a", text: "b" } }]);

describe("the tutorial's chapters never list MCP tools", () => {
  it.each([P01, P02, P03])(
    "$id: not started, not offered, the prompt unchanged",
    async (profile) => {
      expect(await servers(profile)).toBeUndefined();
      // Even handed tools that exist, the chapter leaves them out.
      const tools = sharedWith(["write_note", "read_note"]);
      const offered = async (external: boolean) => {
        const model = new ScriptedModelClient([textReply("hi")]);
        await buildAgent(profile, {
          model,
          workspace: temp.ws,
          commandRunner: new RecordingCommandRunner(),
          approvalProvider: { decide: () => Promise.reject(new Error("never asked")) },
          auditSink: new RecordingAuditSink(),
          ...(external ? { externalTools: tools.tools } : {}),
        }).run("hello");
        return model.requests[0];
      };
      const [without, withTools] = [await offered(false), await offered(true)];
      expect(withTools?.tools).toEqual(without?.tools);
      expect(withTools?.messages[0]).toEqual(without?.messages[0]);
      expect(withTools?.tools.some((tool) => tool.name.startsWith("mcp__"))).toBe(false);
    },
  );
});

describe("chapter 4 and MCP tools", () => {
  it("lists them and says so; a tool the allowlist does not name is denied, nobody is asked, nothing is sent", async () => {
    const tools = sharedWith([]);
    const model = new ScriptedModelClient([write("call_1"), textReply("ok")]);
    const asked: PermissionRequest[] = [];
    const audit = new OutcomeAudit();
    const result = await p04Agent(model, tools, {
      audit,
      approver: {
        decide: (request) => {
          asked.push(request);
          return Promise.resolve(PermissionDecision.allow("yes", "terminal-approval"));
        },
      },
    }).run("write a note");
    const request = model.requests[0];
    expect(
      request?.tools.map((tool) => tool.name).filter((name) => name.startsWith("mcp__")),
    ).toEqual(["mcp__notes__read_note", "mcp__notes__write_note", "mcp__notes__crash_midway"]);
    expect(request?.messages[0]?.content).toContain(EXTERNAL_TOOLS_PROMPT);
    expect(toolMessages(result.history)).toEqual([
      {
        id: "call_1",
        content:
          'Error [policy_denied]: network_or_external_effect_not_allowed: mcp__notes__write_note is tool "write_note" of MCP server "notes", which the allowlist does not name; P04 allows an external tool only when the person\'s settings file lists it (mcpServers.notes.allow) (executed: no; source: p04-policy; scope: every mcp__notes__write_note call)',
      },
    ]);
    expect(asked).toEqual([]);
    expect(logged()).toEqual([]);
    expect(audit.lines()).toEqual([
      'mcp__notes__write_note: deny (p04-policy) - network_or_external_effect_not_allowed: mcp__notes__write_note is tool "write_note" of MCP server "notes", which the allowlist does not name; P04 allows an external tool only when the person\'s settings file lists it (mcpServers.notes.allow)',
    ]);
  });

  it("a read-only tool is decided the same way: external, whatever the server claims", async () => {
    const tools = sharedWith([]);
    const model = new ScriptedModelClient([
      toolCallReply([{ id: "r1", name: "mcp__notes__read_note", arguments: { name: "a" } }]),
      textReply("ok"),
    ]);
    const result = await p04Agent(model, tools).run("read");
    expect(toolMessages(result.history)[0]?.content).toContain(
      "network_or_external_effect_not_allowed",
    );
  });

  it("one the allowlist names is asked with a digest-bound request, runs once on yes, and the audit names server, tool, arguments and operation id", async () => {
    const tools = sharedWith(["write_note"]);
    const asked: PermissionRequest[] = [];
    const audit = new OutcomeAudit();
    const model = new ScriptedModelClient([write("call_1"), textReply("done")]);
    const result = await p04Agent(model, tools, {
      audit,
      approver: {
        decide: (request) => {
          asked.push(request);
          return Promise.resolve(PermissionDecision.allow("User approved", "terminal-approval"));
        },
      },
    }).run("write a note");
    expect(toolMessages(result.history)).toEqual([{ id: "call_1", content: "wrote a" }]);
    expect(asked).toHaveLength(1);
    const ask = asked[0]?.proposedDecision?.approvalRequest;
    expect(ask?.summary).toBe(
      'mcp__notes__write_note {"name":"a","text":"b"} · effect external · MCP server "notes", tool "write_note"',
    );
    expect(ask?.actionDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(asked[0]?.proposedDecision?.reason).toBe(
      'A person approves each exact call: the tool reaches outside this machine (MCP server "notes")',
    );
    const [outcome] = audit.outcomes;
    expect(outcome).toMatchObject({
      tool: "mcp__notes__write_note",
      executed: "yes",
      status: "ok",
      finalArguments: {
        mcpServer: "notes",
        mcpTool: "write_note",
        mcpArguments: '{"name":"a","text":"b"}',
      },
    });
    expect(outcome?.operationId).toMatch(/^op_/);
    expect(logged()).toEqual([`write a b ${outcome?.operationId ?? ""}`]);
  });

  it("a server that dies mid-call: execution_unknown, the run goes on, and a resume does not call it again", async () => {
    const tools = await servers(P04, ["crash_midway", "write_note"]);
    const journal = new MemoryJournal();
    const model = new ScriptedModelClient([
      toolCallReply([{ id: "c1", name: "mcp__notes__crash_midway", arguments: {} }]),
      write("c2"),
      textReply("The server died; I stopped."),
    ]);
    const yes: ApprovalProvider = {
      decide: () => Promise.resolve(PermissionDecision.allow("User approved", "terminal-approval")),
    };
    const result = await p04Agent(model, tools, { approver: yes, journal }).run("crash it");
    expect(result.finalText).toBe("The server died; I stopped.");
    expect(
      result.outcomes.map(({ executed, status, errorCode }) => ({ executed, status, errorCode })),
    ).toEqual([
      { executed: "unknown", status: "unknown", errorCode: "execution_unknown" },
      { executed: "no", status: "execution_failed", errorCode: "external_unavailable" },
    ]);
    expect(toolMessages(result.history)[0]?.content).toMatch(
      /^Error \[execution_unknown\]: MCP server "notes" did not answer the call/,
    );
    expect(logged()).toEqual(["crash_midway started"]);

    // The journal cut just after the call started (the agent itself died then): the call is
    // reported unknown on resume, never sent again.
    const cut = journal.records.slice(
      0,
      journal.records.findIndex((record) => record.type === "execution_started") + 1,
    );
    expect(cut.at(-1)).toMatchObject({
      type: "execution_started",
      tool: "mcp__notes__crash_midway",
    });
    const replayed = replayJournal(
      cut.map((record) => ({ ...record, v: 1, time: "2026-01-01T00:00:00Z" })),
    );
    expect(replayed.openCalls).toMatchObject([{ state: "unknown" }]);
    const again = sharedWith(["crash_midway"]);
    const resumedModel = new ScriptedModelClient([textReply("Checked.")]);
    const resumed = await p04Agent(resumedModel, again, { approver: yes }).resume(
      replayed.history,
      replayed.openCalls,
    );
    expect(resumed.outcomes).toMatchObject([
      { callId: "c1", executed: "unknown", status: "unknown" },
    ]);
    expect(logged()).toEqual(["crash_midway started"]);
  });

  it("even a read-only tool of a server is not run again by a resume", async () => {
    const tools = sharedWith(["read_note"]);
    const journal = new MemoryJournal();
    const model = new ScriptedModelClient([
      toolCallReply([{ id: "r1", name: "mcp__notes__read_note", arguments: { name: "a" } }]),
      textReply("ok"),
    ]);
    const yes: ApprovalProvider = {
      decide: () => Promise.resolve(PermissionDecision.allow("User approved", "terminal-approval")),
    };
    await p04Agent(model, tools, { approver: yes, journal }).run("read");
    const started = journal.records.find((record) => record.type === "execution_started");
    expect(started).toMatchObject({ effect: "read", remote: true });
    const cut = journal.records.slice(0, journal.records.indexOf(started as JournalRecord) + 1);
    const replayed = replayJournal(
      cut.map((record) => ({ ...record, v: 1, time: "2026-01-01T00:00:00Z" })),
    );
    // A read of this machine would be run again (`interrupted_read`); a server's is not.
    expect(replayed.openCalls).toMatchObject([{ state: "unknown" }]);
  });
});

/** A `[y/N/a]` terminal that answers from a script, in order, and keeps each question. */
class ScriptedRunPrompt {
  readonly asked: PermissionRequest[] = [];
  readonly #answers: ("y" | "n" | "a")[];
  constructor(...answers: ("y" | "n" | "a")[]) {
    this.#answers = answers;
  }
  decide(): Promise<PermissionDecision> {
    return Promise.reject(new Error("the daily profile asks [y/N/a]"));
  }
  decideForRun(request: PermissionRequest): Promise<RunApprovalAnswer> {
    this.asked.push(request);
    const answer = this.#answers.shift() ?? "n";
    return Promise.resolve({
      decision:
        answer === "n"
          ? PermissionDecision.deny("User denied this tool call", "terminal-approval")
          : PermissionDecision.allow("User approved this tool call", "terminal-approval"),
      forRun: answer === "a",
    });
  }
}

function dailyAgent(
  model: ScriptedModelClient,
  externalTools: StartedExternalTools | undefined,
  extra: {
    terminal?: ScriptedRunPrompt;
    rules?: PersonalRuleSpec[];
    audit?: OutcomeAudit;
    journal?: RunJournal;
  } = {},
) {
  return buildAgent(DAILY, {
    model,
    workspace: temp.ws,
    commandRunner: new RecordingCommandRunner(),
    approvalProvider: extra.terminal ?? new ScriptedRunPrompt(),
    auditSink: extra.audit ?? new OutcomeAudit(),
    executionEnvironment: new FixedEnvironment(() => SANDBOX),
    ...(extra.journal === undefined ? {} : { journal: extra.journal }),
    ...(externalTools === undefined ? {} : { externalTools: externalTools.tools }),
    runAnswers: { personalRules: extra.rules ?? [] },
  });
}

const read = (id: string) =>
  toolCallReply([{ id, name: "mcp__notes__read_note", arguments: { name: "a" } }]);

describe("the daily profile and MCP tools", () => {
  it("starts the servers and lists their tools, with the ask line in the prompt", async () => {
    const tools = await servers(DAILY);
    expect(tools?.tools.tools.map((tool) => tool.definition.name)).toEqual([
      "mcp__notes__read_note",
      "mcp__notes__write_note",
      "mcp__notes__crash_midway",
    ]);
    const model = new ScriptedModelClient([textReply("hi")]);
    await dailyAgent(model, tools).run("hello");
    const request = model.requests[0];
    expect(request?.tools.map((tool) => tool.name)).toEqual([
      "shell",
      "read_file",
      "write_file",
      "edit_file",
      "glob",
      "grep",
      "mcp__notes__read_note",
      "mcp__notes__write_note",
      "mcp__notes__crash_midway",
    ]);
    expect(request?.messages[0]?.content).toContain(EXTERNAL_TOOLS_ASK_PROMPT);
    expect(request?.messages[0]?.content).not.toContain(EXTERNAL_TOOLS_PROMPT);
  });

  it("asks each call, a read-only one too; y runs it and the audit and journal name server, tool, arguments and operation id; n sends nothing", async () => {
    const terminal = new ScriptedRunPrompt("y", "y", "n");
    const audit = new OutcomeAudit();
    const journal = new MemoryJournal();
    const model = new ScriptedModelClient([
      write("w1"),
      read("r1"),
      toolCallReply([
        { id: "w2", name: "mcp__notes__write_note", arguments: { name: "c", text: "d" } },
      ]),
      textReply("done"),
    ]);
    const result = await dailyAgent(model, sharedWith([]), { terminal, audit, journal }).run(
      "write a note",
    );
    expect(terminal.asked.map((request) => request.toolName)).toEqual([
      "mcp__notes__write_note",
      "mcp__notes__read_note",
      "mcp__notes__write_note",
    ]);
    expect(terminal.asked[0]?.proposedDecision?.source).toBe("confirm-external-call");
    expect(toolMessages(result.history)).toEqual([
      { id: "w1", content: "wrote a" },
      { id: "r1", content: "note a: token (none)\n[image image/png, 70 bytes, not shown]" },
      { id: "w2", content: "Error [permission_denied]: User denied this tool call" },
    ]);
    const [wrote] = audit.outcomes;
    expect(wrote).toMatchObject({
      tool: "mcp__notes__write_note",
      executed: "yes",
      finalArguments: {
        mcpServer: "notes",
        mcpTool: "write_note",
        mcpArguments: '{"name":"a","text":"b"}',
      },
    });
    expect(wrote?.operationId).toMatch(/^op_/);
    expect(logged()).toEqual([`write a b ${wrote?.operationId ?? ""}`]);
    expect(audit.lines()).toEqual([
      "mcp__notes__write_note: allow (terminal-approval) - User approved this tool call",
      "mcp__notes__read_note: allow (terminal-approval) - User approved this tool call",
      "mcp__notes__write_note: deny (terminal-approval) - User denied this tool call",
    ]);
    expect(audit.entries[0]?.request.call.finalArguments).toEqual({
      mcpServer: "notes",
      mcpTool: "write_note",
      mcpArguments: '{"name":"a","text":"b"}',
    });
    expect(journal.records.find((record) => record.type === "execution_started")).toMatchObject({
      tool: "mcp__notes__write_note",
      effect: "external",
      remote: true,
      operationId: wrote?.operationId,
      finalArguments: { mcpServer: "notes", mcpTool: "write_note" },
    });
  });

  it("a personal deny wins over an allow and is never asked; an allow naming mcp__server__tool runs it unasked", async () => {
    const terminal = new ScriptedRunPrompt();
    const audit = new OutcomeAudit();
    const model = new ScriptedModelClient([write("w1"), read("r1"), textReply("done")]);
    const result = await dailyAgent(model, sharedWith([]), {
      terminal,
      audit,
      rules: [
        { behavior: "allow", tool: "mcp__notes__write_note" },
        { behavior: "deny", tool: "mcp__notes__write_note" },
        { behavior: "allow", tool: "mcp__notes__read_note" },
      ],
    }).run("go");
    expect(terminal.asked).toEqual([]);
    expect(audit.lines()).toEqual([
      "mcp__notes__write_note: deny (personal-rule) - Your settings file: deny mcp__notes__write_note",
      "mcp__notes__read_note: allow (personal-rule) - Your settings file: allow mcp__notes__read_note",
    ]);
    expect(toolMessages(result.history)[1]?.id).toBe("r1");
    expect(logged()).toEqual([]);
  });

  it("a answers for exactly the same call again; other arguments ask again", async () => {
    const terminal = new ScriptedRunPrompt("a", "n");
    const audit = new OutcomeAudit();
    const model = new ScriptedModelClient([
      write("w1"),
      write("w2"),
      toolCallReply([
        { id: "w3", name: "mcp__notes__write_note", arguments: { name: "a", text: "other" } },
      ]),
      textReply("done"),
    ]);
    await dailyAgent(model, sharedWith([]), { terminal, audit }).run("go");
    expect(terminal.asked).toHaveLength(2);
    expect(
      audit.entries.map(({ decision }) => `${decision.behavior} (${decision.source})`),
    ).toEqual(["allow (terminal-approval)", "allow (run-grant)", "deny (terminal-approval)"]);
    expect(logged()).toHaveLength(2);
  });
});
