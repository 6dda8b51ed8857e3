import { describe, expect, it } from "vitest";
import { AgentRunner } from "../../../src/core/runner/agent-runner.js";
import { ToolRegistry } from "../../../src/core/tools/tool-registry.js";
import { ScriptedModelClient, textReply } from "../../support/scripted-model.js";
import { allowEveryCall } from "../../support/permission-fakes.js";

describe("AgentRunner.run with a previous history (a conversation's next turn)", () => {
  it("goes on from it: the system prompt once, the first answer in the second request", async () => {
    const model = new ScriptedModelClient([textReply("First."), textReply("Second.")]);
    const runner = new AgentRunner({
      policy: allowEveryCall(),
      model,
      registry: new ToolRegistry([]),
      maxTurns: 3,
      systemPrompt: "Be brief.",
    });
    const first = await runner.run("One?");
    const second = await runner.run("Two?", undefined, first.history);
    expect(model.requests[1]?.messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "One?" },
      { role: "assistant", content: "First.", toolCalls: [] },
      { role: "user", content: "Two?" },
    ]);
    expect(second.finalText).toBe("Second.");
    // The first run's history is not changed by the second.
    expect(first.history).toHaveLength(3);
  });
});
