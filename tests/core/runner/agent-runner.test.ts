import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  AgentLimitError,
  AgentRunError,
  IncompleteModelReplyError,
  RunCancelledError,
} from "../../../src/core/common/agent-errors.js";
import {
  AgentRunner,
  type AgentObserver,
  type AgentRunnerOptions,
} from "../../../src/core/runner/agent-runner.js";
import type { Message } from "../../../src/core/ports/messages.js";
import { validateToolPairing } from "../../../src/core/ports/messages.js";
import type { ModelClient, ModelReply, ModelRequest } from "../../../src/core/ports/model.js";
import { PermissionDecision } from "../../../src/core/policy/permission-decision.js";
import { PermissionPolicy } from "../../../src/core/policy/permissions.js";
import type { ToolDefinition, ToolEffect } from "../../../src/core/tools/tool-definition.js";
import { ToolRegistry } from "../../../src/core/tools/tool-registry.js";
import { toolSuccess } from "../../../src/core/tools/tool-result.js";
import {
  FakeWriteBoundary,
  RecordingApprover,
  RecordingAuditSink,
  allowEveryCall,
} from "../../support/permission-fakes.js";
import { ScriptedModelClient, textReply, toolCallReply } from "../../support/scripted-model.js";
import { runError } from "../../support/run-error.js";

/** A tool whose handler records its arguments; `onRun` lets a test act mid-call (e.g. abort). */
function recordingTool(
  name: string,
  effect: ToolEffect,
  onRun: () => void = () => undefined,
): { tool: ToolDefinition; runs: unknown[] } {
  const runs: unknown[] = [];
  const tool: ToolDefinition = {
    name,
    description: `Test tool ${name}`,
    effect,
    schema: z.strictObject({ text: z.string().optional(), path: z.string().optional() }),
    handler: (args) => {
      runs.push(args);
      onRun();
      return Promise.resolve(toolSuccess(`${name}: ${JSON.stringify(args)}`));
    },
  };
  return { tool, runs };
}

function reply(
  content: string | null,
  finishReason: ModelReply["finishReason"],
  usage?: ModelReply["usage"],
): ModelReply {
  const message = { role: "assistant" as const, content, toolCalls: [] };
  return usage === undefined ? { message, finishReason } : { message, finishReason, usage };
}

function toolMessages(history: readonly Message[]): { toolCallId: string; content: string }[] {
  return history.flatMap((message) =>
    message.role === "tool" ? [{ toolCallId: message.toolCallId, content: message.content }] : [],
  );
}

describe("AgentRunner: answers and the tool loop", () => {
  it("returns a final text answer in one turn", async () => {
    const model = new ScriptedModelClient([textReply("Hello!")]);
    const runner = new AgentRunner({
      policy: allowEveryCall(),
      model,
      registry: new ToolRegistry(),
      maxTurns: 3,
      systemPrompt: "Be brief.",
    });
    expect(await runner.run("Hi")).toEqual({
      finalText: "Hello!",
      turns: 1,
      history: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi" },
        { role: "assistant", content: "Hello!", toolCalls: [] },
      ],
      usage: undefined,
      outcomes: [],
    });
  });

  it("runs a multi-turn tool loop, answering each call with its own id", async () => {
    const echo = recordingTool("echo", "read");
    const model = new ScriptedModelClient([
      toolCallReply([
        { id: "call_a", name: "echo", arguments: { text: "one" } },
        { id: "call_b", name: "echo", arguments: { text: "two" } },
      ]),
      toolCallReply([{ id: "call_c", name: "echo", arguments: { text: "three" } }]),
      textReply("Done."),
    ]);
    const runner = new AgentRunner({
      policy: allowEveryCall(),
      model,
      registry: new ToolRegistry([echo.tool]),
      maxTurns: 5,
    });
    const result = await runner.run("Echo things");
    expect(result.finalText).toBe("Done.");
    expect(result.turns).toBe(3);
    expect(echo.runs).toEqual([{ text: "one" }, { text: "two" }, { text: "three" }]);
    expect(toolMessages(result.history)).toEqual([
      { toolCallId: "call_a", content: 'echo: {"text":"one"}' },
      { toolCallId: "call_b", content: 'echo: {"text":"two"}' },
      { toolCallId: "call_c", content: 'echo: {"text":"three"}' },
    ]);
    expect(result.history.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "tool",
      "assistant",
      "tool",
      "assistant",
    ]);
    expect(() => {
      validateToolPairing(result.history);
    }).not.toThrow();
    // The model saw the answers of turn 1 before turn 2, and the tool list every turn.
    expect(model.requests).toHaveLength(3);
    expect(toolMessages(model.requests[1]?.messages ?? []).map((m) => m.toolCallId)).toEqual([
      "call_a",
      "call_b",
    ]);
    expect(model.requests.map((request) => request.tools.map((tool) => tool.name))).toEqual([
      ["echo"],
      ["echo"],
      ["echo"],
    ]);
  });

  it("unknown tools and invalid JSON still get results paired to their ids", async () => {
    const echo = recordingTool("echo", "read");
    const model = new ScriptedModelClient([
      toolCallReply([
        { id: "u1", name: "toString", arguments: {} },
        { id: "j1", name: "echo", arguments: "{oops" },
        { id: "v1", name: "echo", arguments: { text: 5 } },
        { id: "ok", name: "echo", arguments: { text: "fine" } },
      ]),
      textReply("Recovered."),
    ]);
    const runner = new AgentRunner({
      policy: allowEveryCall(),
      model,
      registry: new ToolRegistry([echo.tool]),
      maxTurns: 3,
    });
    const result = await runner.run("go");
    expect(toolMessages(result.history)).toEqual([
      {
        toolCallId: "u1",
        content: "Error [unknown_tool]: Unknown tool: toString (available tools: echo)",
      },
      { toolCallId: "j1", content: "Error [invalid_json]: Arguments for echo are not valid JSON" },
      {
        toolCallId: "v1",
        content:
          "Error [invalid_arguments]: Invalid arguments for echo: text: Invalid input: expected string, received number",
      },
      { toolCallId: "ok", content: 'echo: {"text":"fine"}' },
    ]);
    expect(echo.runs).toEqual([{ text: "fine" }]);
  });

  it("sums usage across turns", async () => {
    const model = new ScriptedModelClient([
      {
        ...toolCallReply([{ id: "a", name: "echo", arguments: {} }]),
        usage: { promptTokens: 10, completionTokens: 2, totalTokens: 12 },
      },
      textReply("ok", { promptTokens: 20, completionTokens: 3, totalTokens: 23 }),
    ]);
    const runner = new AgentRunner({
      policy: allowEveryCall(),
      model,
      registry: new ToolRegistry([recordingTool("echo", "read").tool]),
      maxTurns: 3,
    });
    expect((await runner.run("go")).usage).toEqual({
      promptTokens: 30,
      completionTokens: 5,
      totalTokens: 35,
    });
  });

  it("calls the observer in order with injected durations", async () => {
    const events: string[] = [];
    const observer: AgentObserver = {
      onModelRequest: (turn, maxTurns) => events.push(`request ${turn}/${maxTurns}`),
      onModelReply: (modelReply, turn) => events.push(`reply ${turn} ${modelReply.finishReason}`),
      onToolCallStart: (call) => events.push(`start ${call.id}`),
      onToolCallEnd: (call, result, durationMs) =>
        events.push(`end ${call.id} ${result.content} ${durationMs}ms`),
    };
    let clock = 0;
    const model = new ScriptedModelClient([
      toolCallReply([
        { id: "a", name: "echo", arguments: {} },
        { id: "b", name: "nope", arguments: {} },
      ]),
      textReply("done"),
    ]);
    const runner = new AgentRunner({
      policy: allowEveryCall(),
      model,
      registry: new ToolRegistry([recordingTool("echo", "read").tool]),
      maxTurns: 4,
      observer,
      now: () => (clock += 5),
    });
    await runner.run("go");
    expect(events).toEqual([
      "request 1/4",
      "reply 1 tool_calls",
      "start a",
      // The clock is read at the start, before the decision (a person's wait) and at the end.
      "end a echo: {} 10ms",
      "start b",
      "end b Error [unknown_tool]: Unknown tool: nope (available tools: echo) 5ms",
      "request 2/4",
      "reply 2 stop",
    ]);
  });
});

describe("AgentRunner: run errors", () => {
  it("rejects a maxTurns that is not a positive integer", () => {
    for (const maxTurns of [0, -1, 1.5, Number.NaN]) {
      expect(
        () =>
          new AgentRunner({
            policy: allowEveryCall(),
            model: new ScriptedModelClient([]),
            registry: new ToolRegistry(),
            maxTurns,
          }),
      ).toThrow(new RangeError("maxTurns must be a positive integer"));
    }
  });

  it("cannot be built without a policy: no runner runs its calls undecided", () => {
    const echo = recordingTool("echo", "read");
    const unchecked = {
      model: new ScriptedModelClient([]),
      registry: new ToolRegistry([echo.tool]),
    };
    // @ts-expect-error: `policy` is required, so this does not compile.
    expect(() => new AgentRunner({ ...unchecked, maxTurns: 2 })).toThrow(
      new TypeError("AgentRunner needs a PermissionPolicy: no call runs undecided"),
    );
    for (const policy of [undefined, null, { decide: () => Promise.resolve(undefined) }]) {
      const options = { ...unchecked, maxTurns: 2, policy } as unknown as AgentRunnerOptions;
      expect(() => new AgentRunner(options)).toThrow(TypeError);
    }
  });

  it("throws AgentLimitError when maxTurns is reached, after answering every call", async () => {
    const echo = recordingTool("echo", "read");
    const model = new ScriptedModelClient([
      toolCallReply([{ id: "a", name: "echo", arguments: {} }]),
      toolCallReply([{ id: "b", name: "echo", arguments: {} }]),
      textReply("too late"),
    ]);
    const runner = new AgentRunner({
      policy: allowEveryCall(),
      model,
      registry: new ToolRegistry([echo.tool]),
      maxTurns: 2,
    });
    const error = await runError(runner.run("loop"));
    expect(error).toBeInstanceOf(AgentLimitError);
    expect(error).toBeInstanceOf(AgentRunError);
    expect(error).toMatchObject({
      name: "AgentLimitError",
      maxTurns: 2,
      message: "The agent reached its limit of 2 turns without a final answer",
    });
    expect(model.requests).toHaveLength(2);
    expect(echo.runs).toHaveLength(2);
  });

  it.each<[string, ModelReply, string]>([
    ["length", reply("partial", "length"), "The model's reply was cut off at its token limit"],
    [
      "length with tool calls",
      toolCallReply([{ id: "a", name: "echo", arguments: {} }], "length"),
      "The model's reply was cut off at its token limit",
    ],
    [
      "content_filter",
      reply("x", "content_filter"),
      "The model's reply was withheld by a content filter",
    ],
    ["an empty stop", reply("", "stop"), "The model replied with neither text nor tool calls"],
    ["a null stop", reply(null, "stop"), "The model replied with neither text nor tool calls"],
    ["a blank stop", reply(" \n", "stop"), "The model replied with neither text nor tool calls"],
    [
      "tool_calls with no calls",
      reply(null, "tool_calls"),
      "The model replied with neither text nor tool calls",
    ],
  ])(
    "throws IncompleteModelReplyError on %s and runs no tool",
    async (_label, modelReply, message) => {
      const echo = recordingTool("echo", "read");
      const runner = new AgentRunner({
        policy: allowEveryCall(),
        model: new ScriptedModelClient([modelReply]),
        registry: new ToolRegistry([echo.tool]),
        maxTurns: 3,
      });
      const error = await runError(runner.run("go"));
      expect(error).toBeInstanceOf(IncompleteModelReplyError);
      expect(error).toBeInstanceOf(AgentRunError);
      expect(error).toMatchObject({ name: "IncompleteModelReplyError", message });
      expect(echo.runs).toEqual([]);
    },
  );

  it("passes a model failure through unchanged when the run was not cancelled", async () => {
    const runner = new AgentRunner({
      policy: allowEveryCall(),
      model: new ScriptedModelClient([]),
      registry: new ToolRegistry(),
      maxTurns: 1,
    });
    await expect(runner.run("go")).rejects.toThrow(
      new Error("ScriptedModelClient ran out of replies"),
    );
  });
});

describe("AgentRunner with a permission policy", () => {
  function writeScript(path: string): ScriptedModelClient {
    return new ScriptedModelClient([
      toolCallReply([{ id: "w1", name: "write_file", arguments: { path } }]),
      textReply("finished"),
    ]);
  }

  /** Runs `prompt` in which the model writes `path`, under `policy`; `writer.runs` are the writes. */
  async function writeUnder(policy: PermissionPolicy, path: string, prompt: string) {
    const writer = recordingTool("write_file", "write");
    const runner = new AgentRunner({
      model: writeScript(path),
      registry: new ToolRegistry([writer.tool]),
      policy,
      maxTurns: 3,
    });
    return { result: await runner.run(prompt), writer };
  }

  it("a denial becomes the exact permission_denied result, paired, and the handler never runs", async () => {
    const approver = new RecordingApprover(() => PermissionDecision.allow("yes", "test-approver"));
    const audit = new RecordingAuditSink();
    const policy = new PermissionPolicy({
      workspaceBoundary: { workspace: "/ws", boundary: new FakeWriteBoundary(() => false) },
      approval: approver,
      audit,
    });
    const { result, writer } = await writeUnder(policy, "../outside.txt", "write outside");
    expect(toolMessages(result.history)).toEqual([
      {
        toolCallId: "w1",
        content: "Error [permission_denied]: Writing outside the workspace is forbidden",
      },
    ]);
    expect(writer.runs).toEqual([]);
    expect(approver.requests).toEqual([]);
    expect(audit.lines()).toEqual([
      "write_file: deny (workspace-boundary) - Writing outside the workspace is forbidden",
    ]);
    expect(result.finalText).toBe("finished");
  });

  it("an ask runs the handler only after an explicit allow", async () => {
    const shell = recordingTool("shell", "execute");
    const answers = [
      PermissionDecision.deny("User denied this tool call", "terminal-approval"),
      PermissionDecision.allow("User approved this tool call", "terminal-approval"),
    ];
    const approver = new RecordingApprover(() => answers.shift());
    const audit = new RecordingAuditSink();
    const model = new ScriptedModelClient([
      toolCallReply([
        { id: "s1", name: "shell", arguments: { text: "rm -rf /" } },
        { id: "s2", name: "shell", arguments: { text: "ls" } },
      ]),
      textReply("ok"),
    ]);
    const runner = new AgentRunner({
      model,
      registry: new ToolRegistry([shell.tool]),
      policy: new PermissionPolicy({ approval: approver, audit }),
      maxTurns: 3,
    });
    const result = await runner.run("shell twice");
    expect(shell.runs).toEqual([{ text: "ls" }]);
    expect(toolMessages(result.history)).toEqual([
      { toolCallId: "s1", content: "Error [permission_denied]: User denied this tool call" },
      { toolCallId: "s2", content: 'shell: {"text":"ls"}' },
    ]);
    expect(approver.requests.map((request) => request.call.callId)).toEqual(["s1", "s2"]);
    expect(audit.lines()).toEqual([
      "shell: deny (terminal-approval) - User denied this tool call",
      "shell: allow (terminal-approval) - User approved this tool call",
    ]);
  });

  it("a failing audit is permission_evaluation_error, paired, and the handler never runs", async () => {
    const audit = new RecordingAuditSink(new Error("audit disk full"));
    const { result, writer } = await writeUnder(
      new PermissionPolicy({ audit }),
      "note.txt",
      "write",
    );
    expect(toolMessages(result.history)).toEqual([
      {
        toolCallId: "w1",
        content: "Error [permission_evaluation_error]: Permission evaluation failed",
      },
    ]);
    expect(writer.runs).toEqual([]);
    expect(audit.entries).toHaveLength(1);
  });

  it("a policy answering with a non-decision fails closed", async () => {
    class LooseDecisionPolicy extends PermissionPolicy {
      override decide(): Promise<PermissionDecision> {
        const lookAlike: unknown = { behavior: "allow", reason: "trust me", source: "fake" };
        return Promise.resolve(lookAlike as PermissionDecision);
      }
    }
    const { result, writer } = await writeUnder(new LooseDecisionPolicy(), "note.txt", "write");
    expect(toolMessages(result.history)).toEqual([
      {
        toolCallId: "w1",
        content: "Error [permission_evaluation_error]: Permission evaluation failed",
      },
    ]);
    expect(writer.runs).toEqual([]);
  });
});

describe("AgentRunner cancellation", () => {
  it("an already aborted signal stops the run before the model is called", async () => {
    const controller = new AbortController();
    controller.abort();
    const model = new ScriptedModelClient([textReply("never")]);
    const runner = new AgentRunner({
      policy: allowEveryCall(),
      model,
      registry: new ToolRegistry(),
      maxTurns: 2,
    });
    const error = await runError(runner.run("go", controller.signal));
    expect(error).toBeInstanceOf(RunCancelledError);
    expect(error).toMatchObject({ message: "Run cancelled" });
    expect(model.requests).toEqual([]);
  });

  it("no handler runs after an abort during an earlier call of the same reply", async () => {
    const controller = new AbortController();
    const first = recordingTool("first", "read", () => {
      controller.abort();
    });
    const second = recordingTool("second", "read");
    const model = new ScriptedModelClient([
      toolCallReply([
        { id: "a", name: "first", arguments: {} },
        { id: "b", name: "second", arguments: {} },
      ]),
      textReply("never"),
    ]);
    const runner = new AgentRunner({
      policy: allowEveryCall(),
      model,
      registry: new ToolRegistry([first.tool, second.tool]),
      maxTurns: 3,
    });
    await expect(runner.run("go", controller.signal)).rejects.toBeInstanceOf(RunCancelledError);
    expect(first.runs).toHaveLength(1);
    expect(second.runs).toEqual([]);
    expect(model.requests).toHaveLength(1);
  });

  it("an abort while the approver is asking stops the approved handler", async () => {
    const controller = new AbortController();
    const shell = recordingTool("shell", "execute");
    const approver = new RecordingApprover(() => {
      controller.abort();
      return PermissionDecision.allow("User approved this tool call", "terminal-approval");
    });
    const runner = new AgentRunner({
      model: new ScriptedModelClient([
        toolCallReply([{ id: "s", name: "shell", arguments: {} }]),
        textReply("never"),
      ]),
      registry: new ToolRegistry([shell.tool]),
      policy: new PermissionPolicy({ approval: approver }),
      maxTurns: 3,
    });
    await expect(runner.run("go", controller.signal)).rejects.toBeInstanceOf(RunCancelledError);
    expect(shell.runs).toEqual([]);
  });

  it("an approver cancelling the prompt ends the run with no handler run", async () => {
    const shell = recordingTool("shell", "execute");
    const audit = new RecordingAuditSink();
    const runner = new AgentRunner({
      model: new ScriptedModelClient([
        toolCallReply([{ id: "s", name: "shell", arguments: {} }]),
        textReply("never"),
      ]),
      registry: new ToolRegistry([shell.tool]),
      policy: new PermissionPolicy({
        approval: new RecordingApprover(() => Promise.reject(new RunCancelledError())),
        audit,
      }),
      maxTurns: 3,
    });
    await expect(runner.run("go")).rejects.toBeInstanceOf(RunCancelledError);
    expect(shell.runs).toEqual([]);
    expect(audit.entries).toEqual([]);
  });

  it("a model that rejects because the run was aborted ends as RunCancelledError", async () => {
    const controller = new AbortController();
    const model: ModelClient = {
      complete: (request: ModelRequest) => {
        controller.abort();
        return Promise.reject(
          new Error(request.signal?.aborted === true ? "Request was aborted." : "not aborted"),
        );
      },
    };
    const runner = new AgentRunner({
      policy: allowEveryCall(),
      model,
      registry: new ToolRegistry(),
      maxTurns: 2,
    });
    await expect(runner.run("go", controller.signal)).rejects.toBeInstanceOf(RunCancelledError);
  });
});

describe("prepareTools", () => {
  it("builds the tools' schemas and lets the observer prepare, asking the model nothing", () => {
    let builds = 0;
    const schema = z.strictObject({ text: z.string().optional() });
    const tool: ToolDefinition = {
      name: "lazy",
      description: "A tool whose schema is built at its first use",
      effect: "read",
      parameters: {
        type: "object",
        properties: { text: { type: "string" } },
        additionalProperties: false,
      },
      get schema() {
        builds += 1;
        return schema;
      },
      handler: () => Promise.resolve(toolSuccess("ok")),
    };
    const model = new ScriptedModelClient([]);
    let prepared = 0;
    const runner = new AgentRunner({
      policy: allowEveryCall(),
      model,
      registry: new ToolRegistry([tool]),
      maxTurns: 1,
      observer: {
        prepare: () => {
          prepared += 1;
        },
      },
    });
    runner.prepareTools();
    expect(builds).toBe(1);
    expect(prepared).toBe(1);
    expect(model.requests).toEqual([]);
  });

  it("is not stopped by an observer that fails to prepare", () => {
    const runner = new AgentRunner({
      policy: allowEveryCall(),
      model: new ScriptedModelClient([]),
      registry: new ToolRegistry(),
      maxTurns: 1,
      observer: {
        prepare: () => {
          throw new Error("display broken");
        },
      },
    });
    expect(() => {
      runner.prepareTools();
    }).not.toThrow();
  });
});
