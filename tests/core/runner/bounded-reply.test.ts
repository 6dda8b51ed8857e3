import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentRunner } from "../../../src/core/runner/agent-runner.js";
import { MAX_REPLY_BYTES, MAX_REPLY_TEXT_BYTES } from "../../../src/core/runner/bounded-reply.js";
import { validateToolPairing, type Message } from "../../../src/core/ports/messages.js";
import { MAX_ARGUMENTS_BYTES } from "../../../src/core/tools/argument-limits.js";
import type { ToolDefinition } from "../../../src/core/tools/tool-definition.js";
import { ToolRegistry } from "../../../src/core/tools/tool-registry.js";
import { toolSuccess } from "../../../src/core/tools/tool-result.js";
import { LimitedJournal } from "../../support/limited-journal.js";
import { ScriptedModelClient, textReply, toolCallReply } from "../../support/scripted-model.js";
import { allowEveryCall } from "../../support/permission-fakes.js";

function writeTool(writes: string[]): ToolDefinition {
  return {
    name: "write_file",
    description: "Writes",
    effect: "write",
    schema: z.strictObject({ path: z.string(), content: z.string() }),
    handler: (args) => {
      writes.push(String(args.path));
      return Promise.resolve(toolSuccess(`wrote ${String(args.path)}`));
    },
  };
}

const MiB = 1024 * 1024;

function run(replies: Parameters<typeof toolCallReply>[0][], journal = new LimitedJournal()) {
  const writes: string[] = [];
  const runner = new AgentRunner({
    policy: allowEveryCall(),
    model: new ScriptedModelClient([
      ...replies.map((calls) => toolCallReply(calls)),
      textReply("Done."),
    ]),
    registry: new ToolRegistry([writeTool(writes)]),
    maxTurns: 10,
    journal,
  });
  return { writes, journal, result: runner.run("Write it") };
}

function toolMessages(history: readonly Message[]): string[] {
  return history.flatMap((message) => (message.role === "tool" ? [message.content] : []));
}

describe("a model reply too large to journal", () => {
  it("refuses a 60 MiB argument with arguments_too_large, keeps the history paired, and goes on", async () => {
    const content = "x".repeat(60 * MiB);
    const args = JSON.stringify({ path: "big.txt", content });
    const bytes = args.length;
    const { writes, journal, result } = run([
      [{ id: "call_big", name: "write_file", arguments: args }],
    ]);
    const done = await result;

    expect(done.finalText).toBe("Done.");
    expect(writes).toEqual([]);
    expect(toolMessages(done.history)).toEqual([
      `Error [arguments_too_large]: Arguments for write_file are ${String(bytes)} bytes, over the ` +
        `${String(MAX_ARGUMENTS_BYTES)}-byte limit; nothing was run. Split the work into smaller calls`,
    ]);
    validateToolPairing(done.history);
    const assistant = done.history.find((message) => message.role === "assistant");
    expect(assistant).toEqual({
      role: "assistant",
      content: null,
      toolCalls: [
        { id: "call_big", name: "write_file", arguments: `{"omitted_bytes":${String(bytes)}}` },
      ],
    });
    expect(journal.bytes).toBeLessThan(64 * 1024);
    expect(journal.records.map((record) => record.type)).not.toContain("call_prepared");
    expect(done.outcomes).toMatchObject([
      {
        callId: "call_big",
        executed: "no",
        status: "invalid_arguments",
        errorCode: "arguments_too_large",
      },
    ]);
  });

  it("refuses the calls of one reply that, together, are more than it may keep", async () => {
    const call = (id: string) => ({
      id,
      name: "write_file",
      arguments: JSON.stringify({ path: `${id}.txt`, content: "y".repeat(5 * MiB) }),
    });
    const { writes, journal, result } = run([[call("a"), call("b"), call("c"), call("d")]]);
    const done = await result;

    expect(done.finalText).toBe("Done.");
    expect(writes).toEqual(["a.txt", "b.txt"]);
    const told = toolMessages(done.history);
    expect(told.slice(0, 2)).toEqual(["wrote a.txt", "wrote b.txt"]);
    // Every call is charged its refusal first (its id and name three times, 2 KiB of records);
    // a kept call then its arguments twice (the reply, then call_prepared; quotes escaped) and the
    // records of a call that runs (its id and name seven times, 8 KiB), less its refusal.
    const bytes = call("a").arguments.length;
    const idAndName = "a".length + "write_file".length;
    const refusal = 3 * idAndName + 2048;
    const overhead = 7 * idAndName + 8192 - refusal;
    const left = MAX_REPLY_BYTES - 4 * refusal - 2 * (2 * (bytes + 8) + overhead);
    expect(told[2]).toBe(
      `Error [arguments_too_large]: Arguments for write_file are ${String(bytes)} bytes, over the ` +
        `${String((left - overhead) / 2)} bytes left for this reply's tool calls; nothing was run. Send fewer or smaller calls`,
    );
    expect(told[3]).toMatch(/^Error \[arguments_too_large\]/);
    validateToolPairing(done.history);
    expect(journal.bytes).toBeLessThan(32 * MiB);
  });

  it("never lets hostile replies, turn after turn, fill the journal: the run still ends normally", async () => {
    const big = (id: string) => ({
      id,
      name: "write_file",
      arguments: JSON.stringify({ path: `${id}.txt`, content: "z".repeat(7 * MiB) }),
    });
    const replies = ["1", "2", "3", "4", "5", "6", "7", "8"].map((turn) => [big(turn)]);
    const { journal, result } = run(replies);
    const done = await result;

    expect(done.finalText).toBe("Done.");
    validateToolPairing(done.history);
    expect(journal.bytes).toBeLessThan(64 * MiB);
  });

  it("cuts assistant text past the limit, saying how much was left out", async () => {
    const writes: string[] = [];
    const text = "w".repeat(3 * MAX_REPLY_TEXT_BYTES);
    const journal = new LimitedJournal();
    const runner = new AgentRunner({
      policy: allowEveryCall(),
      model: new ScriptedModelClient([textReply(text)]),
      registry: new ToolRegistry([writeTool(writes)]),
      maxTurns: 2,
      journal,
    });
    const done = await runner.run("Talk");

    expect(
      done.finalText.endsWith(
        `\n[… ${String(3 * MAX_REPLY_TEXT_BYTES)} bytes in all; the rest was left out, over the limit the harness keeps]`,
      ),
    ).toBe(true);
    expect(done.finalText.length).toBeLessThanOrEqual(MAX_REPLY_TEXT_BYTES);
    expect(done.finalText.startsWith("w".repeat(1000))).toBe(true);
    expect(journal.bytes).toBeLessThan(3 * MAX_REPLY_TEXT_BYTES);
  });
  it("counts a lone surrogate as the 7 bytes it takes escaped twice in call_prepared", async () => {
    // 3 bytes each, as UTF-8 would count them, fits this reply's share of a 12 MiB journal; the
    // reply and call_prepared would then write 6 + 7 bytes each, more than the journal holds.
    const limit = 12 * MiB;
    const journal = new LimitedJournal(limit);
    const prefix = '{"path":"s.txt","content":"';
    const args = `${prefix}${"\ud800".repeat(1_000_000)}"}`;
    const { writes, result } = run(
      [[{ id: "call_s", name: "write_file", arguments: args }]],
      journal,
    );
    const done = await result;

    expect(done.finalText).toBe("Done.");
    expect(writes).toEqual([]);
    const bytes = prefix.length + 2 + 7 * 1_000_000;
    const room = limit - JSON.stringify(journal.records[0]).length;
    const idAndName = "call_s".length + "write_file".length;
    const refusal = 3 * idAndName + 2048;
    const overhead = 7 * idAndName + 8192 - refusal;
    const left = Math.floor(room / 2) - refusal;
    expect(toolMessages(done.history)).toEqual([
      `Error [arguments_too_large]: Arguments for write_file are ${String(bytes)} bytes, over the ` +
        `${String(Math.floor((left - overhead) / 2))} bytes left for this reply's tool calls; ` +
        "nothing was run. Send fewer or smaller calls",
    ]);
    validateToolPairing(done.history);
    expect(journal.bytes).toBeLessThan(64 * 1024);
  });

  it("keeps an id or a name no provider would send short, the call still paired with its result", async () => {
    const id = "i".repeat(MiB);
    const name = "n".repeat(MiB);
    const { writes, journal, result } = run([
      [{ id, name, arguments: "{}" }],
      [{ id: "call_2", name: "write_file", arguments: { path: "a.txt", content: "a" } }],
    ]);
    const done = await result;

    expect(done.finalText).toBe("Done.");
    expect(writes).toEqual(["a.txt"]);
    validateToolPairing(done.history);
    const first = done.history.find((message) => message.role === "assistant");
    const shortId = first?.role === "assistant" ? first.toolCalls[0]?.id : undefined;
    // A SHA-256 of the id's UTF-16 code units: long-call-ids.ts.
    const digest = createHash("sha256").update(Buffer.from(id, "utf16le")).digest("hex");
    expect(shortId).toBe(`call_long_${digest}`);
    expect(toolMessages(done.history)[0]).toBe(
      `Error [unknown_tool]: Unknown tool: ${"n".repeat(64)}… (available tools: write_file)`,
    );
    expect(journal.bytes).toBeLessThan(64 * 1024);
  });
});
