/**
 * `JournalReplay`, the replay a record at a time that `agent resume` runs while it reads a
 * journal: what it keeps between steps, and that it ends where `replayJournal` ends.
 */
import { describe, expect, it } from "vitest";
import { HOST_LABEL } from "../../../src/core/policy/execution-environment.js";
import type { JournalRecord } from "../../../src/core/journal/journal-records.js";
import {
  JournalReplay,
  JournalReplayError,
  replayJournal,
} from "../../../src/core/journal/journal-replay.js";

const reply = (id: string): JournalRecord => ({
  type: "model_reply",
  message: {
    role: "assistant",
    content: null,
    toolCalls: [{ id, name: "write_file", arguments: '{"path":"a.txt","content":"x"}' }],
  },
});

describe("JournalReplay", () => {
  it("keeps no trace of a failed turn's calls: a later call with the same id that writes stays unknown", () => {
    // The failed turn is dropped from the history, so its call id can come back. That its read
    // started must not make the later call, a write on the host, look like a read to run again.
    const records: JournalRecord[] = [
      { type: "run_started", prompt: "task" },
      reply("call_1"),
      { type: "execution_started", callId: "call_1", tool: "read_file", effect: "read" },
      { type: "run_failed", error: "provider down" },
      { type: "user_message", content: "again" },
      reply("call_1"),
      {
        type: "execution_started",
        callId: "call_1",
        tool: "write_file",
        effect: "write",
        environment: HOST_LABEL,
      },
    ];
    const replay = new JournalReplay();
    for (const record of records) replay.add(record);
    const stepped = replay.result();
    expect(stepped.openCalls).toEqual([
      {
        call: { id: "call_1", name: "write_file", arguments: '{"path":"a.txt","content":"x"}' },
        state: "unknown",
        onHost: true,
      },
    ]);
    expect(replayJournal(records)).toEqual(stepped);
  });

  it("answers each call with its own result, however many steps came before", () => {
    const replay = new JournalReplay();
    replay.add({ type: "run_started", prompt: "task" });
    for (const id of ["call_a", "call_b", "call_c"]) {
      replay.add(reply(id));
      replay.add({
        type: "execution_finished",
        callId: id,
        outcome: { callId: id, tool: "write_file", executed: "yes", status: "ok" },
        content: `result of ${id}`,
      } as JournalRecord);
    }
    const { history, openCalls } = replay.result();
    expect(history.filter((message) => message.role === "tool")).toEqual([
      { role: "tool", toolCallId: "call_a", content: "result of call_a" },
      { role: "tool", toolCallId: "call_b", content: "result of call_b" },
    ]);
    expect(openCalls).toEqual([
      expect.objectContaining({ state: "finished", content: "result of call_c" }),
    ]);
  });

  it("refuses a journal that does not begin with run_started at its first record, and an empty one", () => {
    const replay = new JournalReplay();
    expect(() => {
      replay.add(reply("call_1"));
    }).toThrow(new JournalReplayError("the journal does not begin with a run_started record"));
    expect(() => new JournalReplay().result()).toThrow(
      "the journal does not begin with a run_started record",
    );
  });
});
