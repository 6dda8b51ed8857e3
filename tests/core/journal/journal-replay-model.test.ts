/**
 * The model a replayed run is on: a `/model` switch is journaled before it takes effect, so the
 * last one in the journal names the model of the next request, resumed or not.
 */
import { describe, expect, it } from "vitest";
import type { JournalRecord } from "../../../src/core/journal/journal-records.js";
import { replayJournal } from "../../../src/core/journal/journal-replay.js";

const answer = (text: string): JournalRecord => ({
  type: "model_reply",
  message: { role: "assistant", content: text, toolCalls: [] },
});

const switchTo = (model: string): JournalRecord => ({ type: "model_switched", model });

describe("the model a replayed run is on", () => {
  it.each<[string, JournalRecord[], string | undefined]>([
    [
      "never switched: none (the run's start model goes on)",
      [
        { type: "run_started", prompt: "hello" },
        answer("a1"),
        { type: "run_finished", finalText: "a1" },
      ],
      undefined,
    ],
    [
      "switched before the first message (written right after run_started)",
      [{ type: "run_started", prompt: "hello" }, switchTo("gpt-4o"), answer("a1")],
      "gpt-4o",
    ],
    [
      "switched twice across turns: the last switch",
      [
        { type: "run_started", prompt: "hello" },
        switchTo("gpt-4o"),
        answer("a1"),
        { type: "run_finished", finalText: "a1" },
        switchTo("o3"),
        { type: "user_message", content: "again" },
        answer("a2"),
        { type: "run_finished", finalText: "a2" },
      ],
      "o3",
    ],
    [
      "switched after a failed turn: the switch stands, as it does live",
      [
        { type: "run_started", prompt: "hello" },
        { type: "run_failed", error: "provider down" },
        switchTo("gpt-4o-mini"),
        { type: "user_message", content: "again" },
      ],
      "gpt-4o-mini",
    ],
    [
      "switched, then the history cleared: the switch stands",
      [
        { type: "run_started", prompt: "hello" },
        answer("a1"),
        { type: "run_finished", finalText: "a1" },
        switchTo("gpt-4o"),
        { type: "history_compacted", reason: "clear", messages: [] },
      ],
      "gpt-4o",
    ],
  ])("%s", (_name, records, model) => {
    expect(replayJournal(records).switchedModel).toBe(model);
  });
});
