import { describe, expect, it } from "vitest";
import { BootstrapError } from "../../src/bootstrap/bootstrap-error.js";
import { buildAgent } from "../../src/bootstrap/build-agent.js";
import { CapabilitySet, P01, P02, P03 } from "../../src/core/profiles.js";
import { RecordingApprover, RecordingAuditSink } from "../support/permission-fakes.js";
import { ScriptedModelClient, textReply, toolCallReply } from "../support/scripted-model.js";
import { RecordingCommandRunner } from "../support/recording-command-runner.js";
import type { WorkspaceFileSystem } from "../../src/core/ports/filesystem.js";

const base = {
  workspace: "/nonexistent-workspace-for-offline-tests",
  commandRunner: new RecordingCommandRunner(),
};

async function offeredTools(profile: typeof P01): Promise<string[]> {
  const model = new ScriptedModelClient([textReply("hi")]);
  const agent = buildAgent(profile, {
    ...base,
    model,
    approvalProvider: new RecordingApprover(() => undefined),
    auditSink: new RecordingAuditSink(),
  });
  await agent.run("hello");
  return (model.requests[0]?.tools ?? []).map((tool) => tool.name);
}

describe("buildAgent", () => {
  it("P01 registers only shell; P02 and P03 add the four file tools", async () => {
    expect(await offeredTools(P01)).toEqual(["shell"]);
    expect(await offeredTools(P02)).toEqual([
      "shell",
      "read_file",
      "write_file",
      "edit_file",
      "glob",
    ]);
    expect(await offeredTools(P03)).toEqual([
      "shell",
      "read_file",
      "write_file",
      "edit_file",
      "glob",
    ]);
  });

  it("without an approver, P01 and P02 still ask for shell calls: the ask becomes a denial", async () => {
    for (const profile of [P01, P02]) {
      const runner = new RecordingCommandRunner();
      const model = new ScriptedModelClient([
        toolCallReply([{ id: "s1", name: "shell", arguments: { command: "rm -rf x" } }]),
        textReply("done"),
      ]);
      const agent = buildAgent(profile, { ...base, model, commandRunner: runner });
      const result = await agent.run("go");
      expect(result.history.at(-2)).toEqual({
        role: "tool",
        toolCallId: "s1",
        content:
          "Error [permission_denied]: Approval was not explicitly granted: Shell execution requires approval",
      });
      expect(runner.commands).toEqual([]);
    }
  });

  it("P03 without an approver or an audit sink fails to build", () => {
    const model = new ScriptedModelClient([]);
    expect(() => buildAgent(P03, { ...base, model, auditSink: new RecordingAuditSink() })).toThrow(
      new BootstrapError("approvalProvider is required for chapter 3 or later"),
    );
    expect(() =>
      buildAgent(P03, { ...base, model, approvalProvider: new RecordingApprover(() => undefined) }),
    ).toThrow(new BootstrapError("auditSink is required for chapter 3 or later"));
  });

  it("refuses a look-alike profile, even one that copies P03 exactly", () => {
    const model = new ScriptedModelClient([]);
    const copy = { ...P03 };
    const wider = { ...P01, capabilities: new CapabilitySet([...P01.capabilities, "policy"]) };
    for (const profile of [copy, wider]) {
      expect(() => buildAgent(profile, { ...base, model })).toThrow(
        new BootstrapError(
          "Unknown profile: use P01, P02, P03, P04 or daily from src/core/profiles.ts",
        ),
      );
    }
  });
});

describe("BuildDependencies.fileSystem", () => {
  it("the file tools read through the injected double, as the seed's offline tests do", async () => {
    const reads: string[] = [];
    const fileSystem: WorkspaceFileSystem = {
      root: base.workspace,
      readFile: (path) => {
        reads.push(path);
        return Promise.resolve({
          text: "from the double\n",
          firstLine: 1,
          lastLine: 1,
          totalLines: 1,
        });
      },
      writeFile: () => Promise.reject(new Error("unused")),
      editFile: () => Promise.reject(new Error("unused")),
      glob: () => Promise.resolve({ paths: ["only-in-the-double.txt"], omitted: 0 }),
    };
    for (const profile of [P02, P03]) {
      const model = new ScriptedModelClient([
        toolCallReply([
          { id: "r1", name: "read_file", arguments: { path: "notes.txt" } },
          { id: "g1", name: "glob", arguments: { pattern: "*" } },
        ]),
        textReply("done"),
      ]);
      const agent = buildAgent(profile, {
        ...base,
        model,
        fileSystem,
        approvalProvider: new RecordingApprover(() => undefined),
        auditSink: new RecordingAuditSink(),
      });
      const result = await agent.run("read");
      const tools = result.history.filter((message) => message.role === "tool");
      expect(tools.map((message) => message.toolCallId)).toEqual(["r1", "g1"]);
      expect(tools[0]?.content).toContain("from the double");
      expect(tools[1]?.content).toBe("only-in-the-double.txt");
    }
    expect(reads).toEqual(["notes.txt", "notes.txt"]);
  });
});
