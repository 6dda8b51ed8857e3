/**
 * Journals written before there was one `/clear` hold the conversation's own record of it,
 * `conversation_cleared`. Nothing writes it now (a `/clear` is a `history_compacted` record with
 * reason `clear`), but such a file is still read, and replays as it did: the next turn starts
 * again from the system prompt.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readJournalFile, replayJournalFile } from "../../../src/adapters/journal/index.js";
import { replayJournal } from "../../../src/core/journal/journal-replay.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/workspace.js";

let dir: TempWorkspace;
beforeEach(async () => {
  dir = await makeTempWorkspace("agent-legacy-journal-");
});
afterEach(() => dir.cleanup());

const time = "2026-11-30T23:40:00.000Z";
const answer = (text: string): object => ({
  v: 1,
  time,
  type: "model_reply",
  message: { role: "assistant", content: text, toolCalls: [] },
});

describe("a journal with a conversation_cleared line", () => {
  it("is read, and the history after it starts again from the system prompt", () => {
    const path = join(dir.outside, "20261130T234000Z-0a0b0c0d.jsonl");
    const lines = [
      {
        v: 1,
        time,
        type: "run_started",
        systemPrompt: "Be brief.",
        prompt: "first",
        runId: "20261130T234000Z-0a0b0c0d",
        workspace: "/ws",
        chapter: 3,
      },
      answer("One."),
      { v: 1, time, type: "run_finished", finalText: "One." },
      { v: 1, time, type: "conversation_cleared" },
      { v: 1, time, type: "user_message", content: "second" },
      answer("Two."),
      { v: 1, time, type: "run_finished", finalText: "Two." },
    ];
    writeFileSync(path, lines.map((line) => `${JSON.stringify(line)}\n`).join(""));

    const contents = readJournalFile(path);
    expect(contents.records.map((record) => record.type)).toContain("conversation_cleared");
    const replayed = replayJournal(contents.records);
    expect(replayed.history).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "second" },
      { role: "assistant", content: "Two.", toolCalls: [] },
    ]);
    expect(replayed.status).toBe("completed");
    // `agent resume` replays while it reads, keeping no record: to the same run.
    const { replayed: stepped, start, cutBytes } = replayJournalFile(path);
    expect(stepped).toEqual(replayed);
    expect({ start, cutBytes }).toEqual({ start: contents.start, cutBytes: 0 });
  });
});
