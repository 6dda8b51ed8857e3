import { describe, expect, it } from "vitest";
import { z } from "zod";
import { JournalWriteError } from "../../../src/core/common/agent-errors.js";
import { AgentRunner } from "../../../src/core/runner/agent-runner.js";
import type { JournalRecord, RunJournal } from "../../../src/core/journal/journal-records.js";
import { replayJournal } from "../../../src/core/journal/journal-replay.js";
import type { ToolDefinition, ToolEffect } from "../../../src/core/tools/tool-definition.js";
import { ToolRegistry } from "../../../src/core/tools/tool-registry.js";
import { toolSuccess } from "../../../src/core/tools/tool-result.js";
import { ScriptedModelClient, textReply, toolCallReply } from "../../support/scripted-model.js";
import { ALLOWS_EVERY_CALL, allowEveryCall } from "../../support/permission-fakes.js";

/** Keeps records in memory; `failOn` makes the append of that record type throw. */
class MemoryJournal implements RunJournal {
  readonly records: JournalRecord[] = [];
  constructor(readonly failOn?: JournalRecord["type"]) {}
  append(record: JournalRecord): Promise<void> {
    if (record.type === this.failOn) return Promise.reject(new Error("disk full"));
    this.records.push(structuredClone(record));
    return Promise.resolve();
  }
}

/**
 * An echo that counts as a side effect (`execute`) unless told it is a read: a recovery decides by
 * the tool's nature, and only a read is run again after an interruption.
 */
function echoTool(runs: string[], effect: ToolEffect = "execute"): ToolDefinition {
  return {
    name: "echo",
    description: "Echoes",
    effect,
    schema: z.strictObject({ text: z.string() }),
    handler: (args) => {
      runs.push(String(args.text));
      return Promise.resolve(toolSuccess(`echo: ${String(args.text)}`));
    },
  };
}

const CALL = { id: "call_1", name: "echo", arguments: { text: "hi" } };

function runnerWith(
  journal: RunJournal,
  runs: string[],
  replies = [toolCallReply([CALL]), textReply("Done.")],
  effect: ToolEffect = "execute",
) {
  return new AgentRunner({
    policy: allowEveryCall(),
    model: new ScriptedModelClient(replies),
    registry: new ToolRegistry([echoTool(runs, effect)]),
    maxTurns: 5,
    systemPrompt: "Be brief.",
    journal,
  });
}

describe("AgentRunner: the write-ahead journal", () => {
  it("records each step, in order, before it happens", async () => {
    const journal = new MemoryJournal();
    const runs: string[] = [];
    await runnerWith(journal, runs).run("Say hi");

    expect(journal.records.map((record) => record.type)).toEqual([
      "run_started",
      "model_reply",
      "call_prepared",
      "decision",
      "execution_started",
      "execution_finished",
      "model_reply",
      "run_finished",
    ]);
    expect(journal.records[2]).toEqual({
      type: "call_prepared",
      callId: "call_1",
      tool: "echo",
      canonicalArguments: '{"text":"hi"}',
    });
    // Every call is decided before it starts: here by the test's policy, which allows it.
    expect(journal.records[3]).toMatchObject({
      type: "decision",
      callId: "call_1",
      behavior: "allow",
      source: ALLOWS_EVERY_CALL,
    });
    expect(journal.records[5]).toMatchObject({
      type: "execution_finished",
      callId: "call_1",
      content: "echo: hi",
      outcome: { executed: "yes", status: "ok" },
    });
  });

  it.each(["call_prepared", "execution_started"] as const)(
    "fails closed when %s cannot be written: the tool never runs",
    async (failOn) => {
      const runs: string[] = [];
      const journal = new MemoryJournal(failOn);
      const error = await runnerWith(journal, runs)
        .run("Say hi")
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(JournalWriteError);
      expect((error as Error).message).toContain(`(${failOn}): disk full`);
      expect(runs).toEqual([]);
      expect(journal.records.at(-1)).toEqual({
        type: "run_failed",
        error: (error as Error).message,
      });
    },
  );

  it("fails closed when the model reply cannot be written: no call runs", async () => {
    const runs: string[] = [];
    const error = await runnerWith(new MemoryJournal("model_reply"), runs)
      .run("Say hi")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JournalWriteError);
    expect(runs).toEqual([]);
  });
});

describe("AgentRunner.resume", () => {
  /**
   * The journal of a run that died after the step `after`: run_started, model_reply,
   * call_prepared, decision, execution_started, execution_finished, model_reply, run_finished.
   */
  async function journalCutAfter(after: number): Promise<JournalRecord[]> {
    const journal = new MemoryJournal();
    await runnerWith(journal, []).run("Say hi");
    return journal.records.slice(0, after + 1);
  }

  it("reports a call that started and never finished as unknown, and never runs it again", async () => {
    const records = await journalCutAfter(4); // … execution_started
    const replayed = replayJournal(records);
    expect(replayed.openCalls).toEqual([
      { call: { ...CALL, arguments: '{"text":"hi"}' }, state: "unknown" },
    ]);

    const runs: string[] = [];
    const journal = new MemoryJournal();
    const model = new ScriptedModelClient([textReply("Checked; done.")]);
    const runner = new AgentRunner({
      policy: allowEveryCall(),
      model,
      registry: new ToolRegistry([echoTool(runs)]),
      maxTurns: 5,
      journal,
    });
    const result = await runner.resume(replayed.history, replayed.openCalls);

    expect(runs).toEqual([]);
    expect(result.finalText).toBe("Checked; done.");
    expect(result.outcomes).toMatchObject([
      { callId: "call_1", executed: "unknown", status: "unknown" },
    ]);
    const toolMessage = model.requests[0]?.messages.at(-1);
    expect(toolMessage).toEqual({
      role: "tool",
      toolCallId: "call_1",
      content:
        "Error [execution_unknown]: The agent stopped while this call was running, so it may or may not have taken effect; check its effect before retrying it",
    });
    expect(journal.records.map((record) => record.type)).toEqual([
      "run_resumed",
      "execution_finished",
      "model_reply",
      "run_finished",
    ]);
  });

  it("a read that started and never finished is run again, not reported unknown (seed 004)", async () => {
    const journal = new MemoryJournal();
    await runnerWith(journal, [], undefined, "read").run("Say hi");
    const cut = journal.records.slice(0, 5);
    expect(cut.at(-1)).toMatchObject({ type: "execution_started", effect: "read" });
    const replayed = replayJournal(cut);
    expect(replayed.openCalls).toEqual([
      { call: { ...CALL, arguments: '{"text":"hi"}' }, state: "interrupted_read" },
    ]);

    const runs: string[] = [];
    const resumedJournal = new MemoryJournal();
    const model = new ScriptedModelClient([textReply("Read; done.")]);
    const result = await new AgentRunner({
      policy: allowEveryCall(),
      model,
      registry: new ToolRegistry([echoTool(runs, "read")]),
      maxTurns: 5,
      journal: resumedJournal,
    }).resume(replayed.history, replayed.openCalls);

    expect(runs).toEqual(["hi"]);
    expect(result.outcomes).toMatchObject([{ callId: "call_1", executed: "yes", status: "ok" }]);
    expect(model.requests[0]?.messages.at(-1)).toEqual({
      role: "tool",
      toolCallId: "call_1",
      content: "echo: hi",
    });
  });

  it("an interrupted call of an older journal, which names no effect, stays unknown", async () => {
    const journal = new MemoryJournal();
    await runnerWith(journal, [], undefined, "read").run("Say hi");
    const cut = journal.records.slice(0, 5).map((record) => {
      if (record.type !== "execution_started") return record;
      const older: JournalRecord = { ...record };
      delete (older as { effect?: unknown }).effect;
      return older;
    });
    expect(replayJournal(cut).openCalls).toMatchObject([{ state: "unknown" }]);
  });

  it.each([
    [0, 1],
    [1, 1],
    [2, 1],
    [3, 1],
    [5, 0],
    [6, 0],
  ])("resumes a journal cut after record %i to the answer", async (after, expectedRuns) => {
    const replayed = replayJournal(await journalCutAfter(after));
    const runs: string[] = [];
    const replies =
      replayed.history.at(-1)?.role === "user"
        ? [toolCallReply([CALL]), textReply("Done.")]
        : [textReply("Done.")];
    const result = await runnerWith(new MemoryJournal(), runs, replies).resume(
      replayed.history,
      replayed.openCalls,
    );
    expect(result.finalText).toBe("Done.");
    expect(runs).toHaveLength(expectedRuns);
  });

  it("never asks the model when nothing waits for a reply: a conversation cleared, then closed", async () => {
    const journal = new MemoryJournal();
    const live = runnerWith(journal, [], [textReply("Hello.")]);
    const answered = await live.run("hello");
    await live.clearHistory(answered.history);
    const replayed = replayJournal(journal.records);
    expect(replayed.history).toEqual([{ role: "system", content: "Be brief." }]);

    const resumedJournal = new MemoryJournal();
    const model = new ScriptedModelClient([textReply("An answer nobody asked for.")]);
    const result = await new AgentRunner({
      policy: allowEveryCall(),
      model,
      registry: new ToolRegistry([echoTool([])]),
      maxTurns: 5,
      journal: resumedJournal,
    }).resume(replayed.history, replayed.openCalls);

    expect(model.requests).toEqual([]);
    expect(result).toEqual({
      finalText: "",
      turns: 0,
      history: [{ role: "system", content: "Be brief." }],
      usage: undefined,
      outcomes: [],
    });
    expect(resumedJournal.records.map((record) => record.type)).toEqual([
      "run_resumed",
      "run_finished",
    ]);
  });

  it.each([
    ["an empty history", []],
    ["only the system message", [{ role: "system", content: "Be brief." }]],
  ] as const)("never asks the model to go on from %s", async (_, history) => {
    const model = new ScriptedModelClient([textReply("An answer nobody asked for.")]);
    const result = await new AgentRunner({
      policy: allowEveryCall(),
      model,
      registry: new ToolRegistry(),
      maxTurns: 5,
    }).resume(history, []);
    expect(model.requests).toEqual([]);
    expect(result.turns).toBe(0);
    expect(result.finalText).toBe("");
  });

  it("rolls a conversation back past a failed turn, as the live conversation does", () => {
    const replayed = replayJournal([
      { type: "run_started", prompt: "one" },
      { type: "model_reply", message: { role: "assistant", content: "1", toolCalls: [] } },
      { type: "run_finished", finalText: "1" },
      { type: "user_message", content: "two" },
      { type: "run_failed", error: "provider down" },
      { type: "user_message", content: "three" },
    ]);
    expect(replayed.history).toEqual([
      { role: "user", content: "one" },
      { role: "assistant", content: "1", toolCalls: [] },
      { role: "user", content: "three" },
    ]);
    expect(replayed.status).toBe("unfinished");
  });
});

describe("AgentRunner: a conversation's journal", () => {
  it("has one run_started; after a failed first turn the next is a user_message, and replays as the live history", async () => {
    const journal = new MemoryJournal();
    const model = new ScriptedModelClient([textReply("Second answer.")]);
    const failing = {
      calls: 0,
      complete(request: Parameters<typeof model.complete>[0]) {
        this.calls += 1;
        return this.calls === 1
          ? Promise.reject(new Error("provider down"))
          : model.complete(request);
      },
    };
    const runner = new AgentRunner({
      policy: allowEveryCall(),
      model: failing,
      registry: new ToolRegistry(),
      maxTurns: 3,
      systemPrompt: "Be brief.",
      journal,
    });
    await expect(runner.run("first")).rejects.toThrow("provider down");
    const second = await runner.run("second");

    expect(journal.records.map((record) => record.type)).toEqual([
      "run_started",
      "run_failed",
      "user_message",
      "model_reply",
      "run_finished",
    ]);
    expect(replayJournal(journal.records).history).toEqual(second.history);
  });
});

describe("AgentRunner: a stopped conversation turn in the journal", () => {
  it("replays as the live history: the call that ran keeps its result, the other is cancelled", async () => {
    const journal = new MemoryJournal();
    const controller = new AbortController();
    const runs: string[] = [];
    const tool = echoTool(runs);
    const runner = new AgentRunner({
      policy: allowEveryCall(),
      model: new ScriptedModelClient([
        toolCallReply([
          { id: "a", name: "echo", arguments: { text: "one" } },
          { id: "b", name: "echo", arguments: { text: "two" } },
        ]),
        textReply("Next turn."),
      ]),
      // Ctrl-C while the first call runs: it finishes, the second never starts.
      registry: new ToolRegistry([
        {
          ...tool,
          handler: (args, context) => {
            controller.abort();
            return tool.handler(args, context);
          },
        },
      ]),
      maxTurns: 3,
      journal,
    });
    const stopped = await runner.run("Build it", controller.signal).then(
      () => undefined,
      (error: unknown) => error,
    );
    const live = (stopped as { history?: readonly unknown[] }).history;
    expect(live).toBeDefined();
    const next = await runner.run("Go on", undefined, live as never);

    expect(runs).toEqual(["one"]);
    expect(replayJournal(journal.records).history).toEqual(next.history);
    expect(next.history.slice(1, 4)).toEqual([
      expect.objectContaining({ role: "assistant" }),
      { role: "tool", toolCallId: "a", content: "echo: one" },
      {
        role: "tool",
        toolCallId: "b",
        content: "Error [cancelled]: The run was cancelled before this call ran",
      },
    ]);
  });
});
