/**
 * A file tool's writes in the write-ahead journal: file_before is on disk before the write and
 * file_written after it, both inside the call's execution; a before-record that cannot be written
 * stops the run before the write, as a failed execution_started does.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { JournalWriteError } from "../../../src/core/common/agent-errors.js";
import type {
  JournalRecord,
  KeptImage,
  RunJournal,
} from "../../../src/core/journal/journal-records.js";
import { AgentRunner } from "../../../src/core/runner/agent-runner.js";
import type { ToolDefinition } from "../../../src/core/tools/tool-definition.js";
import { ToolRegistry } from "../../../src/core/tools/tool-registry.js";
import { toolSuccess } from "../../../src/core/tools/tool-result.js";
import { ScriptedModelClient, textReply, toolCallReply } from "../../support/scripted-model.js";
import { allowEveryCall } from "../../support/permission-fakes.js";

class MemoryJournal implements RunJournal {
  readonly records: JournalRecord[] = [];
  readonly images: Uint8Array[] = [];
  constructor(readonly failOn?: JournalRecord["type"]) {}
  append(record: JournalRecord): Promise<void> {
    if (record.type === this.failOn) return Promise.reject(new Error("disk full"));
    this.records.push(structuredClone(record));
    return Promise.resolve();
  }
  keepImage(bytes: Uint8Array): Promise<KeptImage> {
    this.images.push(bytes);
    return Promise.resolve({ offset: 0, length: bytes.byteLength });
  }
}

/** A write tool of the file tools' kind: it tells the recorder before and after each write. */
function noteTool(journal: MemoryJournal, written: string[]): ToolDefinition {
  return {
    name: "note",
    description: "Writes a note",
    effect: "write",
    beforeImages: true,
    schema: z.strictObject({ text: z.string() }),
    handler: async (args, { recordWrite }) => {
      await recordWrite?.beforeWrite({
        file: "note.txt",
        before: { sha256: "b".repeat(64), size: 3, bytes: new Uint8Array([1, 2, 3]) },
        afterSha256: "a".repeat(64),
        afterSize: 2,
      });
      // What the write sees: its record is already in the journal.
      written.push(`${String(args.text)} after ${journal.records.at(-1)?.type ?? "nothing"}`);
      await recordWrite?.afterWrite("note.txt", "a".repeat(64));
      return toolSuccess("noted");
    },
  };
}

function run(journal: MemoryJournal, written: string[]): Promise<unknown> {
  return new AgentRunner({
    policy: allowEveryCall(),
    model: new ScriptedModelClient([
      toolCallReply([{ id: "call_1", name: "note", arguments: { text: "hi" } }]),
      textReply("Done."),
    ]),
    registry: new ToolRegistry([noteTool(journal, written)]),
    maxTurns: 5,
    journal,
  })
    .run("Write it")
    .catch((error: unknown) => error);
}

describe("AgentRunner: a write's before-image", () => {
  it("is journaled, with its bytes kept, before the write and confirmed after it", async () => {
    const journal = new MemoryJournal();
    const written: string[] = [];
    await run(journal, written);
    expect(written).toEqual(["hi after file_before"]);
    expect(journal.records.map((record) => record.type)).toEqual([
      "run_started",
      "model_reply",
      "call_prepared",
      "decision",
      "execution_started",
      "file_before",
      "file_written",
      "execution_finished",
      "model_reply",
      "run_finished",
    ]);
    expect(journal.records[4]).toMatchObject({ beforeImages: true, effect: "write" });
    expect(journal.records[5]).toEqual({
      type: "file_before",
      callId: "call_1",
      file: "note.txt",
      existed: true,
      beforeSha256: "b".repeat(64),
      beforeSize: 3,
      image: { offset: 0, length: 3 },
      afterSha256: "a".repeat(64),
      afterSize: 2,
    });
    expect(journal.images).toEqual([new Uint8Array([1, 2, 3])]);
  });

  it("that cannot be journaled stops the run before the write, the call left started", async () => {
    const journal = new MemoryJournal("file_before");
    const written: string[] = [];
    const error = await run(journal, written);
    expect(error).toBeInstanceOf(JournalWriteError);
    expect((error as Error).message).toContain("(file_before): disk full");
    expect(written).toEqual([]);
    expect(journal.records.map((record) => record.type)).toEqual([
      "run_started",
      "model_reply",
      "call_prepared",
      "decision",
      "execution_started",
      "run_failed",
    ]);
  });
});
