/**
 * A reply's calls and their results cannot fill the run journal: past 128 calls a reply's calls
 * are refused, and each result is cut to leave room for the calls still to come, the next turn
 * and the run's end. What the model reads is what the journal keeps, so resume replays it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { FileRunJournal, readJournalFile } from "../../../src/adapters/journal/index.js";
import { AgentRunner } from "../../../src/core/runner/agent-runner.js";
import { replayJournal } from "../../../src/core/journal/journal-replay.js";
import type { JournalRecord } from "../../../src/core/journal/journal-records.js";
import { validateToolPairing, type Message } from "../../../src/core/ports/messages.js";
import type { ModelReply } from "../../../src/core/ports/model.js";
import type { ToolDefinition } from "../../../src/core/tools/tool-definition.js";
import { ToolRegistry } from "../../../src/core/tools/tool-registry.js";
import { toolSuccess } from "../../../src/core/tools/tool-result.js";
import { LimitedJournal } from "../../support/limited-journal.js";
import { ScriptedModelClient, textReply, toolCallReply } from "../../support/scripted-model.js";
import { allowEveryCall } from "../../support/permission-fakes.js";

const KiB = 1024;
const MiB = 1024 * KiB;
const FILE = "r".repeat(256 * KiB);
const CUT = `\n[… ${String(256 * KiB)} bytes in all; the rest was left out, over the limit the harness keeps]`;

/** A read_file that returns `text` for any path, and counts its calls. */
function readTool(reads: string[], text = FILE): ToolDefinition {
  return {
    name: "read_file",
    description: "Reads",
    effect: "read",
    schema: z.strictObject({ path: z.string() }),
    handler: (args) => {
      reads.push(String(args.path));
      return Promise.resolve(toolSuccess(text));
    },
  };
}

function reads(count: number, turn = 1): ModelReply {
  return toolCallReply(
    Array.from({ length: count }, (_, index) => ({
      id: `call_${String(turn)}_${String(index + 1)}`,
      name: "read_file",
      arguments: { path: "big.txt" },
    })),
  );
}

function toolMessages(history: readonly Message[]): string[] {
  return history.flatMap((message) => (message.role === "tool" ? [message.content] : []));
}

function finishedContents(records: readonly { type: string }[]): string[] {
  return records.flatMap((record) =>
    record.type === "execution_finished"
      ? [(record as Extract<JournalRecord, { type: "execution_finished" }>).content]
      : [],
  );
}

function tooMany(position: number, count: number): string {
  return (
    `Error [too_many_tool_calls]: This reply has ${String(count)} tool calls, over the 128 the ` +
    `harness runs from one reply; call ${String(position)} (read_file) was not run. ` +
    "Send the rest in a later reply"
  );
}

/** Whole, or cut at some point with the note: never anything else. */
function wholeOrCut(text: string): "whole" | "cut" | "other" {
  if (text === FILE) return "whole";
  return text.endsWith(CUT) && /^r*$/.test(text.slice(0, -CUT.length)) ? "cut" : "other";
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "agent-bounded-results-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("one reply with 300 reads of a 256 KiB file, on the real 64 MiB journal", () => {
  it("runs 128, refuses the rest paired to their ids, cuts results to fit, and ends normally", async () => {
    const path = join(dir, "run.jsonl");
    const journal = FileRunJournal.open(path, {
      runId: "20261201T180000Z-0a0b0c0d",
      chapter: 2,
      profile: "P02",
      model: "test-model",
      workspace: dir,
      policy: "test",
      sandbox: "off",
      network: false,
    });
    const done: string[] = [];
    const runner = new AgentRunner({
      policy: allowEveryCall(),
      model: new ScriptedModelClient([reads(300), reads(300, 2), textReply("Done.")]),
      registry: new ToolRegistry([readTool(done)]),
      maxTurns: 5,
      journal,
    });
    const result = await runner.run("Read it");
    journal.close();

    expect(result.finalText).toBe("Done.");
    expect(done).toHaveLength(256);
    validateToolPairing(result.history);
    const told = toolMessages(result.history);
    expect(told).toHaveLength(600);
    for (const turn of [0, 300]) {
      expect(told.slice(turn + 128, turn + 300)).toEqual(
        Array.from({ length: 172 }, (_, index) => tooMany(index + 129, 300)),
      );
    }
    const ran = [...told.slice(0, 128), ...told.slice(300, 428)].map(wholeOrCut);
    expect(ran).not.toContain("other");
    // The first reply's results take at most half of the journal: its last ones are cut.
    expect(ran.slice(0, 100)).toEqual(Array.from({ length: 100 }, () => "whole"));
    expect(ran[127]).toBe("cut");
    expect(
      result.outcomes.filter((outcome) => outcome.errorCode === "too_many_tool_calls"),
    ).toHaveLength(344);

    const { records } = readJournalFile(path);
    expect(finishedContents(records)).toEqual(told);
    expect(records.at(-1)).toMatchObject({ type: "run_finished", finalText: "Done." });
    expect(replayJournal(records).history).toEqual(result.history);
  }, 60_000);
});

describe("results bounded by what the journal has left", () => {
  it("cuts each result so every call of the reply still gets its record, and the run ends normally", async () => {
    const journal = new LimitedJournal(MiB);
    const done: string[] = [];
    const runner = new AgentRunner({
      policy: allowEveryCall(),
      model: new ScriptedModelClient([reads(3), reads(3, 2), textReply("Done.")]),
      registry: new ToolRegistry([readTool(done, "r".repeat(256 * KiB))]),
      maxTurns: 5,
      journal,
    });
    const result = await runner.run("Read it");

    expect(result.finalText).toBe("Done.");
    expect(done).toHaveLength(6);
    validateToolPairing(result.history);
    const told = toolMessages(result.history);
    expect(told.map(wholeOrCut)).toEqual(["whole", "cut", "cut", "cut", "cut", "cut"]);
    expect(finishedContents(journal.records)).toEqual(told);
    expect(journal.records.at(-1)).toEqual({ type: "run_finished", finalText: "Done." });
    expect(journal.bytes).toBeLessThanOrEqual(MiB);
  });

  it("refuses a reply of more than 1001 calls before anything of it runs or is journaled", async () => {
    const journal = new LimitedJournal();
    const done: string[] = [];
    const runner = new AgentRunner({
      policy: allowEveryCall(),
      model: new ScriptedModelClient([reads(1002)]),
      registry: new ToolRegistry([readTool(done)]),
      maxTurns: 2,
      journal,
    });

    await expect(runner.run("Read it")).rejects.toThrow(
      "Malformed model reply: 1002 tool calls, more than the 1001 a reply may hold",
    );
    expect(done).toEqual([]);
    expect(journal.records.map((record) => record.type)).toEqual(["run_started", "run_failed"]);
  });
});
