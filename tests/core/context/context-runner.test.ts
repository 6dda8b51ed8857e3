/**
 * The runner keeps its history inside the window (issue 26): compaction before a request would
 * pass 80%, one compaction and one retry after a context-length refusal (never a loop), a summary
 * that fails leaves the run going uncompacted (said once), and the journal replays to the same
 * compacted history.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ContextStillTooLargeError,
  ContextWindowExceededError,
} from "../../../src/core/context/context-errors.js";
import type { CompactionEvent } from "../../../src/core/context/context-keeper.js";
import { SUMMARY_HEADING } from "../../../src/core/context/compaction.js";
import type { JournalRecord } from "../../../src/core/journal/journal-records.js";
import { replayJournal } from "../../../src/core/journal/journal-replay.js";
import { validateToolPairing, type Message } from "../../../src/core/ports/messages.js";
import type { ModelClient, ModelReply, ModelRequest } from "../../../src/core/ports/model.js";
import { AgentRunner } from "../../../src/core/runner/agent-runner.js";
import { ToolRegistry } from "../../../src/core/tools/tool-registry.js";
import { toolSuccess } from "../../../src/core/tools/tool-result.js";
import { textReply, toolCallReply } from "../../support/scripted-model.js";
import { runError } from "../../support/run-error.js";
import { allowEveryCall } from "../../support/permission-fakes.js";

const BIG = "x".repeat(4096);

/** A model answering by a function of the request; it records every request. */
class FunctionModel implements ModelClient {
  readonly requests: ModelRequest[] = [];
  constructor(readonly answer: (request: ModelRequest, index: number) => ModelReply) {}
  complete(request: ModelRequest): Promise<ModelReply> {
    this.requests.push({ ...request, messages: structuredClone([...request.messages]) });
    try {
      return Promise.resolve(this.answer(request, this.requests.length - 1));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
  get summaries(): ModelRequest[] {
    return this.requests.filter((request) => request.purpose === "summary");
  }
  get turns(): ModelRequest[] {
    return this.requests.filter((request) => request.purpose !== "summary");
  }
}

function registry(): ToolRegistry {
  return new ToolRegistry([
    {
      name: "read",
      description: "Reads a big file",
      effect: "read",
      schema: z.strictObject({ n: z.number() }),
      handler: () => Promise.resolve(toolSuccess(BIG)),
    },
  ]);
}

/** `calls` reads, one per reply, then an answer; summary requests get `summary`. */
function readingModel(
  calls: number,
  summary: () => ModelReply,
  refuse: (request: ModelRequest) => boolean = () => false,
) {
  let asked = 0;
  return new FunctionModel((request) => {
    if (request.purpose === "summary") return summary();
    if (refuse(request)) throw new ContextWindowExceededError("maximum context length exceeded");
    if (asked >= calls) return textReply("done");
    asked += 1;
    return toolCallReply([{ id: `call_${String(asked)}`, name: "read", arguments: { n: asked } }]);
  });
}

function runner(
  model: ModelClient,
  contextWindow: number,
  journal: JournalRecord[],
  events: CompactionEvent[],
) {
  return new AgentRunner({
    policy: allowEveryCall(),
    model,
    registry: registry(),
    maxTurns: 200,
    systemPrompt: "system",
    contextWindow,
    journal: { append: (record) => Promise.resolve(void journal.push(structuredClone(record))) },
    observer: { onCompaction: (event) => events.push(event) },
  });
}

const size = (messages: readonly Message[]): number => JSON.stringify(messages).length / 4;

describe("compaction before the window fills", () => {
  it("keeps every request under 80% of the window, paired, with the task verbatim; the journal replays to it", async () => {
    const model = readingModel(40, () => textReply("Read many files."));
    const journal: JournalRecord[] = [];
    const events: CompactionEvent[] = [];

    const result = await runner(model, 16_384, journal, events).run("Read them all");

    expect(result.finalText).toBe("done");
    expect(model.summaries.length).toBeGreaterThan(2);
    for (const request of model.turns) {
      expect(size(request.messages)).toBeLessThan(16_384 * 0.8);
      validateToolPairing(request.messages);
      expect(request.messages.slice(0, 2)).toEqual([
        { role: "system", content: "system" },
        { role: "user", content: "Read them all" },
      ]);
    }
    const compactedRequest = model.turns.find((request) =>
      request.messages.some((m) => m.role === "user" && m.content.startsWith(SUMMARY_HEADING)),
    );
    expect(compactedRequest?.messages[2]).toEqual({
      role: "user",
      content: `${SUMMARY_HEADING}\nRead many files.`,
    });
    expect(model.summaries[0]?.tools).toEqual([]);
    expect(model.summaries[0]?.messages[0]?.content).toMatch(/^This is a summary request/);
    expect(events.filter((event) => event.kind === "compacted")).toHaveLength(
      model.summaries.length,
    );
    // The journal rebuilds the final history exactly, and keeps every original result.
    expect(replayJournal(journal).history).toEqual(result.history);
    expect(journal.filter((r) => r.type === "execution_finished")).toHaveLength(40);
  });
});

describe("a context-length refusal", () => {
  it("gets one compaction and one retry", async () => {
    let refusals = 0;
    const model = readingModel(
      6,
      () => textReply("summary"),
      (request) => {
        // The provider's window is smaller than the one the harness was told.
        if (size(request.messages) > 4_000 && refusals === 0) {
          refusals += 1;
          return true;
        }
        return false;
      },
    );
    const events: CompactionEvent[] = [];

    const result = await runner(model, 1_000_000, [], events).run("Read");

    expect(result.finalText).toBe("done");
    expect(refusals).toBe(1);
    expect(events).toEqual([
      expect.objectContaining({ kind: "compacted", reason: "context_error" }),
    ]);
  });

  it("still too long after the compaction: the run ends with a clear error, after exactly one retry", async () => {
    // From its third turn on, the provider refuses everything, compacted or not.
    let turns = 0;
    const model = readingModel(
      6,
      () => textReply("summary"),
      () => (turns += 1) >= 3,
    );

    const error = await runError(runner(model, 1_000_000, [], []).run("Read"));

    expect(error).toBeInstanceOf(ContextStillTooLargeError);
    expect(error instanceof Error ? error.message : "").toMatch(
      /^The conversation does not fit the model's context window even after compaction \(window 1000000 tokens; --context-window sets it\)/,
    );
    expect(model.turns).toHaveLength(4);
    expect(model.summaries).toHaveLength(1);
    // The retry went out compacted: the summary stands in for the older turn.
    expect(model.turns[3]?.messages[2]).toEqual({
      role: "user",
      content: `${SUMMARY_HEADING}\nsummary`,
    });
  });
});

describe("a summary that fails", () => {
  it.each([
    ["returns nothing", () => textReply("   ")],
    [
      "fails",
      () => {
        throw new Error("server down");
      },
    ],
  ])("%s: the run goes on uncompacted and says so once", async (_name, summary) => {
    const model = readingModel(12, summary);
    const journal: JournalRecord[] = [];
    const events: CompactionEvent[] = [];

    const result = await runner(model, 8_192, journal, events).run("Read");

    expect(result.finalText).toBe("done");
    expect(events.filter((event) => event.kind === "summary_failed")).toHaveLength(1);
    expect(journal.some((record) => record.type === "history_compacted")).toBe(false);
    expect(result.history.filter((m) => m.role === "tool")).toHaveLength(12);
  });
});

describe("/compact and /clear", () => {
  it("are journaled, so a resumed conversation goes on from the same history", async () => {
    const model = readingModel(3, () => textReply("sum"));
    const journal: JournalRecord[] = [];
    const agent = runner(model, 1_000_000, journal, []);

    const first = await agent.run("Read");
    const compacted = await agent.compactHistory(first.history);
    expect(compacted).not.toBe(first.history);
    expect(replayJournal(journal).history).toEqual(compacted);
    const cleared = await agent.clearHistory(compacted);
    expect(cleared).toEqual([{ role: "system", content: "system" }]);
    expect(replayJournal(journal).history).toEqual(cleared);
    const next = await agent.run("Again", undefined, cleared);
    expect(replayJournal(journal).history).toEqual(next.history);
    expect(next.history[1]).toEqual({ role: "user", content: "Again" });
  });
});

describe("/compact that would not make the history smaller", () => {
  /** A conversation of `lines`, each answered with `reply`; summary requests get `summary`. */
  async function conversation(lines: readonly string[], reply: string, summary: string) {
    const model = new FunctionModel((request) =>
      textReply(request.purpose === "summary" ? summary : reply),
    );
    const journal: JournalRecord[] = [];
    const events: CompactionEvent[] = [];
    const agent = runner(model, 1_000_000, journal, events);
    let history: readonly Message[] | undefined;
    for (const line of lines) history = (await agent.run(line, undefined, history)).history;
    if (history === undefined) throw new Error("no line was run");
    const before = structuredClone([...history]);
    const compacted = await agent.compactHistory(history);
    return { model, journal, events, history, before, compacted };
  }

  it("older turns smaller than the summary's own heading: the model is not asked", async () => {
    const run = await conversation(["hi", "and again", "once more"], "Sure.", "unused");
    expect(run.model.summaries).toHaveLength(0);
    expect(run.events).toEqual([{ kind: "not_smaller", reason: "command", tokens: 84 }]);
    expect(run.compacted).toBe(run.history);
    expect(run.history).toEqual(run.before);
    expect(run.journal.filter((record) => record.type === "history_compacted")).toEqual([]);
  });

  it("a summary longer than the turns it would replace: the history stays as it was", async () => {
    const run = await conversation(
      ["hi", "and again", "once more"],
      "A short answer of a few words, but longer than the heading of a summary note is.".repeat(3),
      "A summary that says far more than the turns it summarizes. ".repeat(40),
    );
    expect(run.model.summaries).toHaveLength(1);
    expect(run.events).toEqual([{ kind: "not_smaller", reason: "command", tokens: 258 }]);
    expect(run.compacted).toBe(run.history);
    expect(run.history).toEqual(run.before);
    expect(run.journal.filter((record) => record.type === "history_compacted")).toEqual([]);
  });
});
