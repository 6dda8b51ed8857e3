import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildAgent } from "../../src/bootstrap/build-agent.js";
import { validateToolPairing } from "../../src/core/ports/messages.js";
import { PermissionDecision } from "../../src/core/policy/permission-decision.js";
import { P02, P03 } from "../../src/core/profiles.js";
import { RecordingApprover, RecordingAuditSink } from "../support/permission-fakes.js";
import { ScriptedModelClient, textReply, toolCallReply } from "../support/scripted-model.js";
import { runOneToolReply } from "../support/one-reply-run.js";
import { toolMessages } from "../support/tool-messages.js";
import { makeTempWorkspace, type TempWorkspace } from "../support/workspace.js";
import { RecordingCommandRunner } from "../support/recording-command-runner.js";

const approveAll = (): PermissionDecision =>
  PermissionDecision.allow("User approved this tool call", "test-approver");

/** The tutorial's three calls: a read that passes, a write inside that asks, a write outside. */
function tutorialScript(): ScriptedModelClient {
  return new ScriptedModelClient([
    toolCallReply([{ id: "call_glob", name: "glob", arguments: { pattern: "**/*.md" } }]),
    toolCallReply([
      {
        id: "call_write",
        name: "write_file",
        arguments: { path: "note.txt", content: "hello, world\n" },
      },
    ]),
    toolCallReply([
      {
        id: "call_escape",
        name: "write_file",
        arguments: { path: "../outside.txt", content: "x" },
      },
    ]),
    textReply("done"),
  ]);
}

describe("the tutorial's three calls under P03", () => {
  let temp: TempWorkspace;
  beforeEach(async () => {
    temp = await makeTempWorkspace();
  });
  afterEach(async () => {
    await temp.cleanup();
  });

  it("allows glob silently, asks once for the write inside, hard-denies the write outside", async () => {
    const model = tutorialScript();
    const approver = new RecordingApprover(approveAll);
    const audit = new RecordingAuditSink();
    const agent = buildAgent(P03, {
      model,
      workspace: temp.workspace,
      commandRunner: new RecordingCommandRunner(),
      approvalProvider: approver,
      auditSink: audit,
    });

    const result = await agent.run("Write a note");

    expect(result.finalText).toBe("done");
    expect(toolMessages(result.history)).toEqual([
      { id: "call_glob", content: "No files match **/*.md" },
      { id: "call_write", content: "Wrote 13 UTF-8 bytes to note.txt" },
      {
        id: "call_escape",
        content: "Error [permission_denied]: Writing outside the workspace is forbidden",
      },
    ]);
    expect(() => {
      validateToolPairing(result.history);
    }).not.toThrow();

    // Exactly one approval request: the write inside, carrying the proposed ask.
    expect(approver.requests).toHaveLength(1);
    const asked = approver.requests[0];
    expect(asked?.toolName).toBe("write_file");
    expect(asked?.call.callId).toBe("call_write");
    expect(asked?.proposedDecision).toMatchObject({
      behavior: "ask",
      reason: "File writes require explicit approval from chapter 3 onward",
      source: "confirm-file-write",
    });

    // One audit line per final decision; the outside write holds only the boundary deny.
    expect(audit.lines()).toEqual([
      "glob: allow (default) - No permission rule blocked the request",
      "write_file: allow (test-approver) - User approved this tool call",
      "write_file: deny (workspace-boundary) - Writing outside the workspace is forbidden",
    ]);

    expect(await readFile(join(temp.workspace, "note.txt"), "utf8")).toBe("hello, world\n");
    expect(existsSync(join(temp.root, "outside.txt"))).toBe(false);
  });

  it("a failing audit sink stops the handler: no file, permission_evaluation_error", async () => {
    const approver = new RecordingApprover(approveAll);
    const result = await runOneToolReply(
      P03,
      [{ id: "call_write", name: "write_file", arguments: { path: "note.txt", content: "x" } }],
      {
        workspace: temp.workspace,
        approvalProvider: approver,
        auditSink: new RecordingAuditSink(new Error("disk full")),
      },
      "Write a note",
    );

    expect(toolMessages(result.history)).toEqual([
      {
        id: "call_write",
        content: "Error [permission_evaluation_error]: Permission evaluation failed",
      },
    ]);
    expect(approver.requests).toHaveLength(1);
    expect(existsSync(join(temp.workspace, "note.txt"))).toBe(false);
  });

  it("an approver's denial leaves no file and tells the model why", async () => {
    const model = new ScriptedModelClient([
      toolCallReply([
        {
          id: "call_edit",
          name: "edit_file",
          arguments: { path: "a.txt", old_string: "a", new_string: "b" },
        },
      ]),
      textReply("ok"),
    ]);
    const agent = buildAgent(P03, {
      model,
      workspace: temp.workspace,
      commandRunner: new RecordingCommandRunner(),
      approvalProvider: new RecordingApprover(() =>
        PermissionDecision.deny("User denied this tool call", "test-approver"),
      ),
      auditSink: new RecordingAuditSink(),
    });

    const result = await agent.run("Edit");

    expect(toolMessages(result.history)).toEqual([
      { id: "call_edit", content: "Error [permission_denied]: User denied this tool call" },
    ]);
  });

  it("every shell call asks, whatever its text, and runs only after an explicit allow", async () => {
    const runner = new RecordingCommandRunner();
    const answers = [
      PermissionDecision.deny("User denied this tool call", "test-approver"),
      approveAll(),
    ];
    const approver = new RecordingApprover(() => answers.shift());
    const model = new ScriptedModelClient([
      toolCallReply([
        { id: "s1", name: "shell", arguments: { command: "echo harmless" } },
        { id: "s2", name: "shell", arguments: { command: "ls" } },
      ]),
      textReply("ok"),
    ]);
    const agent = buildAgent(P03, {
      model,
      workspace: temp.workspace,
      commandRunner: runner,
      approvalProvider: approver,
      auditSink: new RecordingAuditSink(),
    });

    const result = await agent.run("Look around");

    expect(approver.requests.map((request) => request.proposedDecision?.reason)).toEqual([
      "Shell execution requires approval",
      "Shell execution requires approval",
    ]);
    expect(runner.commands).toEqual(["ls"]);
    expect(toolMessages(result.history)).toEqual([
      { id: "s1", content: "Error [permission_denied]: User denied this tool call" },
      { id: "s2", content: "ran: ls" },
    ]);
  });
});

describe("P02 against P03 on the same script", () => {
  let temp: TempWorkspace;
  beforeEach(async () => {
    temp = await makeTempWorkspace();
  });
  afterEach(async () => {
    await temp.cleanup();
  });

  const writeScript = (): ScriptedModelClient =>
    new ScriptedModelClient([
      toolCallReply([
        {
          id: "call_write",
          name: "write_file",
          arguments: { path: "note.txt", content: "hello, world\n" },
        },
      ]),
      textReply("done"),
    ]);

  it.each([
    ["P02 writes with no approval and no audit", P02, 0],
    ["P03 asks once and audits once for the same write", P03, 1],
  ] as const)("%s", async (_name, profile, asksAndAudits) => {
    const approver = new RecordingApprover(approveAll);
    const audit = new RecordingAuditSink();
    const agent = buildAgent(profile, {
      model: writeScript(),
      workspace: temp.workspace,
      commandRunner: new RecordingCommandRunner(),
      approvalProvider: approver,
      auditSink: audit,
    });

    const result = await agent.run("Write");

    expect(toolMessages(result.history)).toEqual([
      { id: "call_write", content: "Wrote 13 UTF-8 bytes to note.txt" },
    ]);
    expect(await readFile(join(temp.workspace, "note.txt"), "utf8")).toBe("hello, world\n");
    expect(approver.requests).toHaveLength(asksAndAudits);
    expect(audit.entries).toHaveLength(asksAndAudits);
  });

  it("P02 refuses ../outside.txt in the handler with path_escape and creates nothing", async () => {
    const result = await runOneToolReply(
      P02,
      [
        {
          id: "call_write",
          name: "write_file",
          arguments: { path: "note.txt", content: "hello, world\n" },
        },
        {
          id: "call_escape",
          name: "write_file",
          arguments: { path: "../outside.txt", content: "x" },
        },
      ],
      { workspace: temp.workspace },
      "Write twice",
    );

    expect(toolMessages(result.history)).toEqual([
      { id: "call_write", content: "Wrote 13 UTF-8 bytes to note.txt" },
      {
        id: "call_escape",
        content: "Error [path_escape]: path must not contain parent segments: ../outside.txt",
      },
    ]);
    expect(() => {
      validateToolPairing(result.history);
    }).not.toThrow();
    expect(existsSync(join(temp.root, "outside.txt"))).toBe(false);
    expect(await readFile(join(temp.workspace, "note.txt"), "utf8")).toBe("hello, world\n");
  });
});
