/**
 * Attaching `@path` mentions through the registry's real read_file and a real policy, on a real
 * temp workspace: the whole message the model would get, each mention's report, and a person who
 * is never asked.
 */
import { symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NodeWorkspaceFileSystem } from "../../../src/adapters/filesystem/index.js";
import { PermissionDecision } from "../../../src/core/policy/permission-decision.js";
import { PermissionRule } from "../../../src/core/policy/permission-rule.js";
import { PermissionPolicy } from "../../../src/core/policy/permissions.js";
import {
  attachMentions,
  MENTION_BYTES_LIMIT,
  MENTION_COUNT_LIMIT,
  type MentionReader,
  type MentionReport,
} from "../../../src/core/runner/mention-attachments.js";
import { AgentRunner } from "../../../src/core/runner/agent-runner.js";
import type { JournalRecord } from "../../../src/core/journal/journal-records.js";
import { ScriptedModelClient, textReply } from "../../support/scripted-model.js";
import { ToolRegistry } from "../../../src/core/tools/tool-registry.js";
import { createReadFileTool } from "../../../src/features/read-file-tool.js";
import {
  allowEveryCall,
  RecordingApprover,
  RecordingAuditSink,
} from "../../support/permission-fakes.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/workspace.js";

describe("attachMentions", () => {
  let dir: TempWorkspace;
  let ids: number;

  beforeEach(async () => {
    dir = await makeTempWorkspace("mentions-");
    ids = 0;
  });

  afterEach(async () => {
    await dir.cleanup();
  });

  function reader(extra: Partial<MentionReader> = {}): MentionReader {
    const fileSystem = new NodeWorkspaceFileSystem(dir.workspace);
    return {
      snapshot: new ToolRegistry([createReadFileTool({ fileSystem })]).snapshot(),
      policy: allowEveryCall().withoutApprover(),
      workspace: dir.workspace,
      newCallId: () => `mention_${++ids}`,
      ...extra,
    };
  }

  it("leaves a message without mentions as it is, reading nothing", async () => {
    const audit = new RecordingAuditSink();
    const policy = new PermissionPolicy({ audit });
    expect(await attachMentions("mail a@b.com", reader({ policy }))).toEqual({
      content: "mail a@b.com",
      reports: [],
    });
    expect(audit.entries).toEqual([]);
  });

  it("attaches each file once, in order, each read audited, and reports each as it goes", async () => {
    await writeFile(join(dir.workspace, "a.txt"), "alpha\n");
    await writeFile(join(dir.workspace, "empty.txt"), "");
    const audit = new RecordingAuditSink();
    const seen: string[] = [];
    const attached = await attachMentions("See @a.txt, @empty.txt and @a.txt.", {
      ...reader({ policy: new PermissionPolicy({ audit }) }),
      onReport: (report) => seen.push(report.path),
    });
    expect(attached).toEqual({
      content:
        "See @a.txt, @empty.txt and @a.txt.\n\n" +
        "Attached by the person, the text of a.txt (1 line) as read_file returns it:\n```\nalpha\n```\n\n" +
        "Attached by the person, the text of empty.txt (1 line) as read_file returns it:\n```\n[empty file]\n```",
      reports: [
        { kind: "attached", path: "a.txt", lines: 1, bytes: 6 },
        { kind: "attached", path: "empty.txt", lines: 0, bytes: 0 },
      ],
    });
    expect(seen).toEqual(["a.txt", "empty.txt"]);
    expect(
      audit.entries.map(({ request, decision }) => [
        request.call.callId,
        request.toolName,
        request.call.arguments,
        decision.behavior,
      ]),
    ).toEqual([
      ["mention_1", "read_file", { path: "a.txt" }, "allow"],
      ["mention_2", "read_file", { path: "empty.txt" }, "allow"],
    ]);
  });

  it("never asks the person: a read a rule asks about is denied, one it denies too", async () => {
    await writeFile(join(dir.workspace, "a.txt"), "alpha\n");
    await writeFile(join(dir.workspace, "b.txt"), "beta\n");
    const approver = new RecordingApprover(() => PermissionDecision.allow("yes", "person"));
    const rule = (behavior: "ask" | "deny", path: string) =>
      new PermissionRule({
        name: `${behavior}-${path}`,
        behavior,
        reason: `${behavior} for ${path}`,
        matches: (request) => request.call.arguments.path === path,
      });
    const policy = new PermissionPolicy({
      approval: approver,
      rules: [rule("ask", "a.txt"), rule("deny", "b.txt")],
    });
    const attached = await attachMentions(
      "@a.txt @b.txt",
      reader({ policy: policy.withoutApprover() }),
    );
    expect(attached).toEqual({
      content: "@a.txt @b.txt",
      reports: [
        {
          kind: "refused",
          path: "a.txt",
          reason: "permission_denied: Approval was not explicitly granted: ask for a.txt",
        },
        { kind: "refused", path: "b.txt", reason: "permission_denied: deny for b.txt" },
      ],
    });
    expect(approver.requests).toEqual([]);
  });

  it("refuses where read_file refuses, and says a missing file is no file", async () => {
    await writeFile(join(dir.outside, "secret.txt"), "SECRET\n");
    await symlink(join(dir.outside, "secret.txt"), join(dir.workspace, "link.txt"));
    const attached = await attachMentions("@link.txt @../outside/secret.txt @gone.txt", reader());
    expect(attached.content).toBe("@link.txt @../outside/secret.txt @gone.txt");
    expect(attached.reports.map((report) => [report.kind, report.path])).toEqual([
      ["refused", "link.txt"],
      ["refused", "../outside/secret.txt"],
      ["not_found", "gone.txt"],
    ]);
  });

  it("says so where the run has no read_file (chapter 1)", async () => {
    await writeFile(join(dir.workspace, "a.txt"), "alpha\n");
    const snapshot = new ToolRegistry([]).snapshot();
    expect(await attachMentions("@a.txt", reader({ snapshot }))).toEqual({
      content: "@a.txt",
      reports: [
        {
          kind: "refused",
          path: "a.txt",
          reason: "unknown_tool: this run has no read_file tool (chapter 1)",
        },
      ],
    });
  });

  it("keeps one message's attachments under the read limit, and their number bounded", async () => {
    const half = "x".repeat(MENTION_BYTES_LIMIT / 2 - 1) + "\n";
    for (const name of ["one", "two", "three"]) {
      await writeFile(join(dir.workspace, `${name}.txt`), half);
    }
    const sized = await attachMentions("@one.txt @two.txt @three.txt", reader());
    expect(sized.reports.map((report) => report.kind)).toEqual(["attached", "attached", "refused"]);
    expect(sized.reports[2]).toEqual({
      kind: "refused",
      path: "three.txt",
      reason: `${half.length} bytes would take this message's attachments past ${MENTION_BYTES_LIMIT} bytes`,
    });
    const names = Array.from({ length: MENTION_COUNT_LIMIT + 3 }, (_, index) => `f${index}.txt`);
    for (const name of names.slice(1)) await writeFile(join(dir.workspace, name), "x\n");
    const audit = new RecordingAuditSink();
    const policy = new PermissionPolicy({ audit });
    const counted = await attachMentions(
      names.map((name) => `@${name}`).join(" "),
      reader({ policy }),
    );
    // f0.txt is missing: every mention read counts, attached or not.
    expect(counted.reports.map((report) => report.kind)).toEqual([
      "not_found",
      ...Array.from({ length: MENTION_COUNT_LIMIT - 1 }, () => "attached"),
      "refused",
    ]);
    expect(counted.reports.at(-1)).toEqual({
      kind: "refused",
      path: `f${MENTION_COUNT_LIMIT}.txt`,
      reason: `more than ${MENTION_COUNT_LIMIT} mentions in one message: this one and the 2 after it are not read`,
    });
    expect(audit.entries).toHaveLength(MENTION_COUNT_LIMIT);
  });
});

describe("AgentRunner with @path mentions", () => {
  it("sends the task with its files, asks nobody, and journals the message as sent", async () => {
    const dir = await makeTempWorkspace("mentions-runner-");
    try {
      await writeFile(join(dir.workspace, "a.txt"), "alpha\n");
      await writeFile(join(dir.workspace, "b.txt"), "beta\n");
      const fileSystem = new NodeWorkspaceFileSystem(dir.workspace);
      const approver = new RecordingApprover(() => PermissionDecision.allow("yes", "person"));
      const asks = new PermissionRule({
        name: "ask-b",
        behavior: "ask",
        reason: "b.txt asks",
        matches: (request) => request.call.arguments.path === "b.txt",
      });
      const model = new ScriptedModelClient([textReply("Done.")]);
      const journal: JournalRecord[] = [];
      const shown: MentionReport[] = [];
      const runner = new AgentRunner({
        model,
        registry: new ToolRegistry([createReadFileTool({ fileSystem })]),
        policy: new PermissionPolicy({ approval: approver, rules: [asks] }),
        maxTurns: 2,
        workspace: dir.workspace,
        journal: {
          append: (record) => {
            journal.push(record);
            return Promise.resolve();
          },
        },
        observer: { onMention: (report) => shown.push(report) },
      });
      await runner.run("Compare @a.txt with @b.txt");
      const sent =
        "Compare @a.txt with @b.txt\n\n" +
        "Attached by the person, the text of a.txt (1 line) as read_file returns it:\n```\nalpha\n```";
      expect(model.requests[0]?.messages).toEqual([{ role: "user", content: sent }]);
      expect(journal[0]).toEqual({ type: "run_started", prompt: sent });
      expect(approver.requests).toEqual([]);
      expect(shown.map((report) => report.kind)).toEqual(["attached", "refused"]);
    } finally {
      await dir.cleanup();
    }
  });
});
