import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  FileRunJournal,
  listRuns,
  readJournalFile,
  runsDirectory,
} from "../../../src/adapters/journal/index.js";
import { LISTED_WHOLE_BYTES, readJournalEnds } from "../../../src/adapters/journal/journal-file.js";
import type { JournalRecord } from "../../../src/core/journal/journal-records.js";
import { replayJournal } from "../../../src/core/journal/journal-replay.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/workspace.js";

const CONTEXT = {
  runId: "20261130T234000Z-0a0b0c0d",
  chapter: 3,
  profile: "P03",
  model: "test-model",
  workspace: "/ws",
  policy: "test",
  sandbox: "auto",
  network: false,
};
const NOW = (): Date => new Date("2026-11-30T23:40:00.000Z");
const TEXT = "a reply long enough to fill the journal quickly ✓ ".repeat(40);

let dir: TempWorkspace;
let path: string;
let runs: string;
beforeEach(async () => {
  dir = await makeTempWorkspace("agent-journal-ends-");
  runs = runsDirectory(dir.outside);
  path = join(runs, `${CONTEXT.runId}.jsonl`);
});
afterEach(() => dir.cleanup());

function reply(text: string): JournalRecord {
  return { type: "model_reply", message: { role: "assistant", content: text, toolCalls: [] } };
}

/** One journal line as FileRunJournal writes it (the version, the time, the record). */
function line(record: JournalRecord | Record<string, unknown>): string {
  return `${JSON.stringify({ v: 1, time: NOW().toISOString(), ...record })}\n`;
}

/** A journal well past LISTED_WHOLE_BYTES: turns of one reply each, then `ending`. */
function writeLongRun(ending: readonly JournalRecord[], turns = 150): void {
  const lines = [
    line({ type: "run_started", systemPrompt: "be brief", prompt: "list files", ...CONTEXT }),
  ];
  for (let turn = 0; turn < turns; turn += 1) {
    if (turn > 0) lines.push(line({ type: "user_message", content: `turn ${turn}` }));
    lines.push(line(reply(TEXT)), line({ type: "run_finished", finalText: TEXT }));
  }
  lines.push(...ending.map(line));
  mkdirSync(runs, { recursive: true });
  writeFileSync(path, lines.join(""));
  expect(statSync(path).size).toBeGreaterThan(LISTED_WHOLE_BYTES);
}

function wholeStatus(): string {
  return replayJournal(readJournalFile(path).records).status;
}

describe("a long journal is listed from its ends, with the status a whole replay gives", () => {
  it.each<[string, JournalRecord[], string]>([
    ["finished", [], "completed"],
    ["failed", [{ type: "run_failed", error: "gone" }], "failed"],
    ["cancelled", [{ type: "run_cancelled" }], "cancelled"],
    [
      "finished, then records that leave the status as it was",
      [
        { type: "model_switched", model: "other" },
        { type: "history_compacted", reason: "command", messages: [] },
      ],
      "completed",
    ],
    ["resumed", [{ type: "run_resumed" }, reply("again")], "unfinished"],
    [
      "a next turn longer than a read chunk",
      [
        { type: "user_message", content: "go on" },
        ...Array.from({ length: 80 }, () => reply(TEXT)),
      ],
      "unfinished",
    ],
  ])("%s", (_name, ending, status) => {
    writeLongRun(ending);
    expect(wholeStatus()).toBe(status);
    expect(readJournalEnds(path)).toMatchObject({ status, start: { prompt: "list files" } });
    expect(listRuns(runs)).toEqual([
      {
        runId: CONTEXT.runId,
        path,
        startedAt: "2026-11-30T23:40:00.000Z",
        status,
        prompt: "list files",
      },
    ]);
  });

  it("skips a last line cut by a crash, as a whole read does", () => {
    writeLongRun([{ type: "run_failed", error: "gone" }]);
    appendFileSync(path, '{"type":"run_fini');
    expect(wholeStatus()).toBe("failed");
    expect(listRuns(runs)[0]?.status).toBe("failed");
  });

  it("reads a journal whole when a record it reads at the end does not parse", () => {
    writeLongRun([]);
    appendFileSync(path, "garbage\n");
    expect(readJournalEnds(path)).toBeUndefined();
    const [run] = listRuns(runs);
    expect(run?.status).toBe("unreadable");
    expect(run?.problem).toMatch(
      /cannot be read at line \d+: it is not JSON; it was left as it is$/,
    );
  });

  it("does not see a fault in a long journal's middle: agent resume, reading it whole, does", () => {
    writeLongRun([]);
    const text = readFileSync(path, "utf8");
    const middle = text.indexOf("\n", text.length / 2) + 1;
    writeFileSync(path, `${text.slice(0, middle)}garbage\n${text.slice(middle)}`);
    expect(listRuns(runs)[0]?.status).toBe("completed");
    expect(() => readJournalFile(path)).toThrow(/it is not JSON; it was left as it is$/);
  });

  it("reads a short journal whole", async () => {
    const journal = FileRunJournal.open(path, CONTEXT, NOW);
    await journal.append({ type: "run_started", prompt: "list files" });
    await journal.append({ type: "run_finished", finalText: "done" });
    journal.close();
    expect(readJournalEnds(path)).toBeUndefined();
    expect(listRuns(runs)[0]?.status).toBe("completed");
  });
});
