/**
 * The journal's recovery record (seed 004, issue 30 item 5): before a call runs, its external
 * operation id is reserved in execution_started and handed to the tool as its idempotency key;
 * a process the call starts is recorded by id once it exists, before the call's end. The tool
 * also gets the chapter-3 ToolContext: the workspace and whom the run acts for.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { planShell, createShellRunner } from "../../../src/adapters/shell/index.js";
import type { JournalRecord, RunJournal } from "../../../src/core/journal/journal-records.js";
import { AgentRunner } from "../../../src/core/runner/agent-runner.js";
import type { ToolContext, ToolDefinition } from "../../../src/core/tools/tool-definition.js";
import { ToolRegistry } from "../../../src/core/tools/tool-registry.js";
import { toolSuccess } from "../../../src/core/tools/tool-result.js";
import { createShellTool } from "../../../src/features/shell-tool.js";
import { ScriptedModelClient, textReply, toolCallReply } from "../../support/scripted-model.js";
import { allowEveryCall } from "../../support/permission-fakes.js";

class MemoryJournal implements RunJournal {
  readonly records: JournalRecord[] = [];
  append(record: JournalRecord): Promise<void> {
    this.records.push(structuredClone(record));
    return Promise.resolve();
  }
}

function runner(tools: ToolDefinition[], calls: { id: string; name: string; arguments: object }[]) {
  const journal = new MemoryJournal();
  let next = 0;
  const agent = new AgentRunner({
    policy: allowEveryCall(),
    model: new ScriptedModelClient([toolCallReply(calls), textReply("done")]),
    registry: new ToolRegistry(tools),
    maxTurns: 3,
    journal,
    workspace: "/ws",
    identity: { runId: "run-7", profile: "P04" },
    newOperationId: () => `op_${String((next += 1))}`,
  });
  return { agent, journal };
}

describe("the recovery record", () => {
  it("reserves an operation id before the call runs, and the tool gets it as its idempotency key", async () => {
    const seen: ToolContext[] = [];
    const probe: ToolDefinition = {
      name: "remote",
      description: "A tool with a remote effect",
      effect: "write",
      schema: z.strictObject({}),
      handler: (_args, context) => {
        seen.push(context);
        return Promise.resolve(toolSuccess("sent"));
      },
    };
    const { agent, journal } = runner(
      [probe],
      [
        { id: "a", name: "remote", arguments: {} },
        { id: "b", name: "remote", arguments: {} },
      ],
    );
    await agent.run("go");
    const started = journal.records.filter((record) => record.type === "execution_started");
    expect(started).toEqual([
      {
        type: "execution_started",
        callId: "a",
        tool: "remote",
        effect: "write",
        operationId: "op_1",
      },
      {
        type: "execution_started",
        callId: "b",
        tool: "remote",
        effect: "write",
        operationId: "op_2",
      },
    ]);
    expect(seen.map((context) => context.idempotencyKey)).toEqual(["op_1", "op_2"]);
    expect(seen[0]?.workspace).toBe("/ws");
    expect(seen[0]?.identity).toEqual({ runId: "run-7", profile: "P04" });
  });

  it.skipIf(process.platform === "win32")(
    "records the started process's id after execution_started and before execution_finished",
    async () => {
      const shellRunner = createShellRunner(
        planShell({
          choice: "posix",
          env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
          workspace: "/nonexistent-workspace",
          platform: process.platform,
          passEnv: [],
        }),
      );
      const shell = createShellTool({ runner: shellRunner, workspace: process.cwd() });
      const { agent, journal } = runner(
        [shell],
        [{ id: "s", name: "shell", arguments: { command: "echo $$" } }],
      );
      const result = await agent.run("go");
      const types = journal.records.map((record) => record.type);
      const spawned = journal.records.find((record) => record.type === "process_started");
      expect(types.indexOf("process_started")).toBeGreaterThan(types.indexOf("execution_started"));
      expect(types.indexOf("process_started")).toBeLessThan(types.indexOf("execution_finished"));
      // The shell printed its own pid ($$): the one recorded.
      const printed = Number(result.history.find((message) => message.role === "tool")?.content);
      expect(spawned).toEqual({
        type: "process_started",
        callId: "s",
        operationId: "op_1",
        pid: printed,
      });
    },
  );

  it("a call that never starts a process has no process record", async () => {
    const { agent, journal } = runner(
      [
        {
          name: "remote",
          description: "d",
          effect: "read",
          schema: z.strictObject({}),
          handler: () => Promise.resolve(toolSuccess("x")),
        },
      ],
      [{ id: "a", name: "remote", arguments: {} }],
    );
    await agent.run("go");
    expect(journal.records.some((record) => record.type === "process_started")).toBe(false);
  });
});
