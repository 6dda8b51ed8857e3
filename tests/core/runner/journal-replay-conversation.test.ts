/**
 * Issue 27: a conversation's `/model` record, and the `/clear` record older journals hold
 * (`conversation_cleared`, no longer written), read back by `agent resume`.
 */
import { describe, expect, it } from "vitest";
import type { JournalRecord } from "../../../src/core/journal/journal-records.js";
import { replayJournal } from "../../../src/core/journal/journal-replay.js";

const answer = (text: string): JournalRecord => ({
  type: "model_reply",
  message: { role: "assistant", content: text, toolCalls: [] },
});

describe("replayJournal: conversation records", () => {
  it("after an older journal's conversation_cleared the history starts again from the system prompt", () => {
    const replayed = replayJournal([
      { type: "run_started", systemPrompt: "Be brief.", prompt: "first" },
      answer("One."),
      { type: "run_finished", finalText: "One." },
      { type: "model_switched", model: "other" },
      { type: "conversation_cleared" },
      { type: "user_message", content: "second" },
      answer("Two."),
      { type: "run_finished", finalText: "Two." },
    ]);
    expect(replayed.history).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "second" },
      { role: "assistant", content: "Two.", toolCalls: [] },
    ]);
    expect(replayed.status).toBe("completed");
  });
});
