/**
 * Call ids over 256 characters are replaced before the fresh-id check, by a digest that keeps
 * them apart: a long id repeated later is given a fresh one like a repeated short one, and two long ids
 * never share a replacement, however they were chosen.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentRunner } from "../../../src/core/runner/agent-runner.js";
import { validateToolPairing, type Message } from "../../../src/core/ports/messages.js";
import type { ModelReply } from "../../../src/core/ports/model.js";
import type { ToolDefinition } from "../../../src/core/tools/tool-definition.js";
import { ToolRegistry } from "../../../src/core/tools/tool-registry.js";
import { toolSuccess } from "../../../src/core/tools/tool-result.js";
import { LimitedJournal } from "../../support/limited-journal.js";
import { ScriptedModelClient, textReply, toolCallReply } from "../../support/scripted-model.js";
import { allowEveryCall } from "../../support/permission-fakes.js";

function noteTool(notes: string[]): ToolDefinition {
  return {
    name: "note",
    description: "Notes",
    effect: "write",
    schema: z.strictObject({ text: z.string() }),
    handler: (args) => {
      notes.push(String(args.text));
      return Promise.resolve(toolSuccess(`noted ${String(args.text)}`));
    },
  };
}

function notes(...calls: [id: string, text: string][]): ModelReply {
  return toolCallReply(calls.map(([id, text]) => ({ id, name: "note", arguments: { text } })));
}

function run(replies: ModelReply[]) {
  const written: string[] = [];
  const journal = new LimitedJournal();
  const runner = new AgentRunner({
    policy: allowEveryCall(),
    model: new ScriptedModelClient(replies),
    registry: new ToolRegistry([noteTool(written)]),
    maxTurns: 5,
    journal,
  });
  return { written, journal, result: runner.run("Note it") };
}

function digest(id: string): string {
  return `call_long_${createHash("sha256").update(Buffer.from(id, "utf16le")).digest("hex")}`;
}

function callIds(history: readonly Message[]): string[] {
  return history.flatMap((message) =>
    message.role === "assistant" ? message.toolCalls.map((call) => call.id) : [],
  );
}

/** The harness's old replacement hashed long ids with FNV-1a, 32 bits. */
function fnv1a(text: string, hash = 0x811c9dc5): number {
  let value = hash;
  for (let index = 0; index < text.length; index += 1) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value;
}

/** Two different 300-character ids with one FNV-1a hash: the last two characters are solved for. */
function fnvCollision(): [string, string] {
  for (let attempt = 0; ; attempt += 1) {
    const prefix = `call_${String(attempt)}_`.padEnd(298, "p");
    const start = fnv1a(prefix);
    const first = Math.imul(start ^ 0x41, 0x01000193) >>> 0;
    for (let unit = 0x42; unit < 0xd800; unit += 1) {
      const difference = (first ^ (Math.imul(start ^ unit, 0x01000193) >>> 0)) >>> 0;
      const last = 0x41 ^ difference;
      if (difference < 0x10000 && (last < 0xd800 || last >= 0xe000)) {
        return [`${prefix}AA`, `${prefix}${String.fromCharCode(unit)}${String.fromCharCode(last)}`];
      }
    }
  }
}

describe("long call ids", () => {
  it("a long id repeated in a later reply gets a fresh one, as a repeated short one does", async () => {
    const long = "L".repeat(300);
    const { written, result } = run([
      notes([long, "one"]),
      notes([long, "two"]),
      textReply("Done."),
    ]);

    const { history } = await result;
    expect(written).toEqual(["one", "two"]);
    expect(callIds(history)).toEqual([digest(long), `${digest(long)}_2`]);
    expect(() => {
      validateToolPairing(history);
    }).not.toThrow();
  });

  it("a long id repeated in one reply: the second call gets a fresh one", async () => {
    const long = "L".repeat(300);
    const { written, result } = run([notes([long, "one"], [long, "two"]), textReply("Done.")]);

    const { history } = await result;
    expect(written).toEqual(["one", "two"]);
    expect(callIds(history)).toEqual([digest(long), `${digest(long)}_2`]);
  });

  it("keeps apart long ids a 32-bit hash or a UTF-8 encoding would confuse", async () => {
    const [first, second] = fnvCollision();
    expect(first).not.toBe(second);
    expect(fnv1a(first)).toBe(fnv1a(second));
    // Both surrogates become U+FFFD in UTF-8.
    const third = `\ud800${"s".repeat(299)}`;
    const fourth = `\ud801${"s".repeat(299)}`;
    expect(Buffer.from(third, "utf8")).toEqual(Buffer.from(fourth, "utf8"));
    const { written, result } = run([
      notes([first, "1"], [second, "2"], [third, "3"], [fourth, "4"]),
      textReply("Done."),
    ]);
    const done = await result;

    expect(done.finalText).toBe("Done.");
    expect(written).toEqual(["1", "2", "3", "4"]);
    expect(callIds(done.history)).toEqual([first, second, third, fourth].map(digest));
    expect(new Set(callIds(done.history)).size).toBe(4);
    validateToolPairing(done.history);
  });

  it("keeps an id of 256 characters as it is", async () => {
    const id = "k".repeat(256);
    const { result } = run([notes([id, "one"]), textReply("Done.")]);
    const done = await result;

    expect(callIds(done.history)).toEqual([id]);
  });
});
