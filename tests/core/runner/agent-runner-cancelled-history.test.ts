import { describe, expect, it } from "vitest";
import { z } from "zod";
import { RunCancelledError } from "../../../src/core/common/agent-errors.js";
import { AgentRunner } from "../../../src/core/runner/agent-runner.js";
import { validateToolPairing } from "../../../src/core/ports/messages.js";
import type { ModelClient } from "../../../src/core/ports/model.js";
import { PermissionPolicy } from "../../../src/core/policy/permissions.js";
import type { ToolDefinition } from "../../../src/core/tools/tool-definition.js";
import { ToolRegistry } from "../../../src/core/tools/tool-registry.js";
import { toolSuccess } from "../../../src/core/tools/tool-result.js";
import { RecordingApprover, allowEveryCall } from "../../support/permission-fakes.js";
import { ScriptedModelClient, textReply, toolCallReply } from "../../support/scripted-model.js";

const CANCELLED = "Error [cancelled]: The run was cancelled before this call ran";

function shellTool(onRun: () => void = () => undefined): ToolDefinition {
  return {
    name: "shell",
    description: "Test shell",
    effect: "execute",
    schema: z.strictObject({ command: z.string() }),
    handler: (args) => {
      onRun();
      const { command } = args as { command: string };
      return Promise.resolve(toolSuccess(`ran ${command}`));
    },
  };
}

async function cancelled(run: Promise<unknown>): Promise<RunCancelledError> {
  const error = await run.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof RunCancelledError)) throw new Error(`not cancelled: ${String(error)}`);
  return error;
}

describe("a cancelled run's history", () => {
  it("keeps the call that ran with its result, pairs the one that never ran, and goes on", async () => {
    const controller = new AbortController();
    const model = new ScriptedModelClient([
      toolCallReply([
        { id: "a", name: "shell", arguments: { command: "make" } },
        { id: "b", name: "shell", arguments: { command: "make install" } },
      ]),
      textReply("Next turn."),
    ]);
    const runner = new AgentRunner({
      policy: allowEveryCall(),
      model,
      // The first command runs; Ctrl-C comes while it does, so the second never starts.
      registry: new ToolRegistry([
        shellTool(() => {
          controller.abort();
        }),
      ]),
      maxTurns: 3,
    });
    const error = await cancelled(runner.run("Build it", controller.signal));
    const history = error.history ?? [];
    expect(history).toEqual([
      { role: "user", content: "Build it" },
      {
        role: "assistant",
        content: null,
        toolCalls: [
          { id: "a", name: "shell", arguments: '{"command":"make"}' },
          { id: "b", name: "shell", arguments: '{"command":"make install"}' },
        ],
      },
      { role: "tool", toolCallId: "a", content: "ran make" },
      { role: "tool", toolCallId: "b", content: CANCELLED },
    ]);
    expect(() => {
      validateToolPairing(history);
    }).not.toThrow();
    // The next turn's request holds what already ran.
    const next = await runner.run("Go on", undefined, history);
    expect(next.finalText).toBe("Next turn.");
    expect(model.requests[1]?.messages).toEqual([...history, { role: "user", content: "Go on" }]);
  });

  it("pairs a call cancelled at its approval prompt", async () => {
    const runner = new AgentRunner({
      model: new ScriptedModelClient([
        toolCallReply([{ id: "s", name: "shell", arguments: { command: "rm x" } }]),
      ]),
      registry: new ToolRegistry([shellTool()]),
      policy: new PermissionPolicy({
        approval: new RecordingApprover(() => Promise.reject(new RunCancelledError())),
      }),
      maxTurns: 3,
    });
    const error = await cancelled(runner.run("Clean"));
    expect(error.history?.slice(-1)).toEqual([
      { role: "tool", toolCallId: "s", content: CANCELLED },
    ]);
    expect(() => {
      validateToolPairing(error.history ?? []);
    }).not.toThrow();
  });

  it("holds the earlier turns and the person's line when the model was still answering", async () => {
    const controller = new AbortController();
    const model: ModelClient = {
      complete: () => {
        controller.abort();
        return Promise.reject(new Error("Request was aborted."));
      },
    };
    const runner = new AgentRunner({
      policy: allowEveryCall(),
      model,
      registry: new ToolRegistry(),
      maxTurns: 2,
    });
    const previous = [
      { role: "user", content: "Hi" },
      { role: "assistant", content: "Hello.", toolCalls: [] },
    ] as const;
    const error = await cancelled(runner.run("Hang", controller.signal, previous));
    expect(error.history).toEqual([...previous, { role: "user", content: "Hang" }]);
  });
});
