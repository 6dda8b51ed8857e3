/**
 * Seed 000 (the tutorial's chapter 3, permissions before side effects), its acceptance as
 * written: the three hard assertions on call C verbatim, the exact strings the chapter states,
 * and its code's shapes (P03's capabilities, the behaviors, the decision, the merge). Only the
 * imports and the fixtures around the lines are ours.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildAgent } from "../../src/bootstrap/build-agent.js";
import { validateToolPairing } from "../../src/core/ports/messages.js";
import {
  PERMISSION_BEHAVIORS,
  PermissionContractError,
  PermissionDecision,
} from "../../src/core/policy/permission-decision.js";
import { strongestDecision } from "../../src/core/policy/permissions.js";
import { P03, profileForChapter } from "../../src/core/profiles.js";
import { toolError, toolSuccess } from "../../src/core/tools/tool-result.js";
import { formatAuditLine } from "../../src/cli/terminal/approval/terminal-audit.js";
import { PermissionRequest } from "../../src/core/policy/permission-request.js";
import { RecordingApprover, RecordingAuditSink } from "../support/permission-fakes.js";
import { preparedCall } from "../support/prepared-calls.js";
import { RecordingCommandRunner } from "../support/recording-command-runner.js";
import { ScriptedModelClient, textReply, toolCallReply } from "../support/scripted-model.js";
import { toolMessages } from "../support/tool-messages.js";
import { makeTempWorkspace, type TempWorkspace } from "../support/workspace.js";

let temp: TempWorkspace;
beforeEach(async () => {
  temp = await makeTempWorkspace();
});
afterEach(async () => {
  await temp.cleanup();
});

describe("seed 000: call C, a write outside the workspace", () => {
  it("is denied at the boundary: no approval asked, no file, the history still paired", async () => {
    const approval = new RecordingApprover(() =>
      PermissionDecision.allow("User approved this tool call", "terminal-approval"),
    );
    const audit = new RecordingAuditSink();
    const outside = join(temp.workspace, "..", "outside.txt");
    const agent = buildAgent(P03, {
      model: new ScriptedModelClient([
        toolCallReply([
          {
            id: "call_c",
            name: "write_file",
            arguments: { path: "../outside.txt", content: "x" },
          },
        ]),
        textReply("done"),
      ]),
      workspace: temp.workspace,
      commandRunner: new RecordingCommandRunner(),
      approvalProvider: approval,
      auditSink: audit,
    });
    const result = await agent.run("Write outside");

    expect(approval.requests).toEqual([]); // 审批器一次都没被调用
    await expect(readFile(outside, "utf8")).rejects.toThrow(); // 文件确实没被创建
    validateToolPairing(result.history); // 消息结构仍然完整

    expect(toolMessages(result.history)).toEqual([
      {
        id: "call_c",
        content: "Error [permission_denied]: Writing outside the workspace is forbidden",
      },
    ]);
    expect(audit.lines()).toEqual([
      "write_file: deny (workspace-boundary) - Writing outside the workspace is forbidden",
    ]);
  });
});

describe("seed 000: the chapter's code, as written", () => {
  it("P03 is chapter 3 with the five capabilities, and the root builds its policy from them", () => {
    expect(P03.chapter).toBe(3);
    expect([...P03.capabilities]).toEqual([
      "loop",
      "powershell",
      "tool_registry",
      "files",
      "policy",
    ]);
    expect(P03.capabilities.has("policy")).toBe(true);
    expect(profileForChapter(P03.chapter)).toBe(P03);
  });

  it("four behaviors, and a decision carries its reason and source", () => {
    expect(PERMISSION_BEHAVIORS).toEqual(["allow", "deny", "ask", "passthrough"]);
    const decision = new PermissionDecision(
      "ask",
      "File writes require explicit approval from chapter 3 onward",
      "confirm-file-write",
    );
    expect([decision.behavior, decision.reason, decision.source]).toEqual([
      "ask",
      "File writes require explicit approval from chapter 3 onward",
      "confirm-file-write",
    ]);
    expect(Object.isFrozen(decision)).toBe(true);
  });

  it("only a final deny decision can become a tool result", () => {
    expect(() =>
      new PermissionDecision(
        "ask",
        "File writes require explicit approval from chapter 3 onward",
        "confirm-file-write",
      ).toToolResult(),
    ).toThrow(PermissionContractError);
    expect(() => PermissionDecision.allow("ok", "default").toToolResult()).toThrow(
      /^only a final deny decision can become a tool result/,
    );
    expect(
      new PermissionDecision(
        "deny",
        "Writing outside the workspace is forbidden",
        "workspace-boundary",
      ).toToolResult().content,
    ).toBe("Error [permission_denied]: Writing outside the workspace is forbidden");
  });

  it("toolSuccess and toolError", () => {
    expect(toolSuccess("ok")).toEqual({ content: "ok", isError: false });
    expect(toolError("permission_denied", "Writing outside the workspace is forbidden")).toEqual({
      content: "Error [permission_denied]: Writing outside the workspace is forbidden",
      isError: true,
      errorCode: "permission_denied",
    });
  });

  it("strongestDecision: deny > ask > allow > passthrough, else passthrough from default", () => {
    const deny = new PermissionDecision(
      "deny",
      "Writing outside the workspace is forbidden",
      "workspace-boundary",
    );
    const ask = new PermissionDecision(
      "ask",
      "File writes require explicit approval from chapter 3 onward",
      "confirm-file-write",
    );
    expect(strongestDecision([ask, deny])).toBe(deny);
    const none = strongestDecision([]);
    expect([none.behavior, none.reason, none.source]).toEqual([
      "passthrough",
      "No permission participant made a decision",
      "default",
    ]);
  });

  it("the terminal audit line: [Permission] tool: behavior (source) - reason", () => {
    const request = new PermissionRequest(
      preparedCall("write_file", "write", { path: "chapter3-note.txt", content: "x" }),
    );
    expect(
      formatAuditLine(
        request,
        new PermissionDecision("allow", "User approved this tool call", "terminal-approval"),
      ),
    ).toBe("[Permission] write_file: allow (terminal-approval) - User approved this tool call");
  });
});
