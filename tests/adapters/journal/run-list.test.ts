/**
 * This workspace's runs as `agent runs` lists them and `agent resume` and `agent undo` pick them:
 * newest first, even within one second (a run id names its start to the second, so runs of the
 * same second are ordered by the start their journals record, to the ms); the status of a run a
 * live process holds (running mid-turn, open between turns); the prompt as the person wrote it.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  journalPath,
  listRuns,
  lockPath,
  lockRun,
  runIdsNewestFirst,
} from "../../../src/adapters/journal/index.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/workspace.js";

const time = "2026-12-07T01:00:00.000Z";
const started = (runId: string, at = time, prompt = "task") => ({
  v: 1,
  time: at,
  type: "run_started",
  prompt,
  runId,
  workspace: "/ws",
  chapter: 3,
});
const finished = { v: 1, time, type: "run_finished", finalText: "done", turns: 1 };

let dir: TempWorkspace;
let runs: string;
beforeEach(async () => {
  dir = await makeTempWorkspace("agent-run-list-");
  runs = join(dir.outside, "runs");
  mkdirSync(runs);
});
afterEach(() => dir.cleanup());

function journal(runId: string, ...records: object[]): void {
  const text = [started(runId), ...records].map((record) => `${JSON.stringify(record)}\n`);
  writeFileSync(journalPath(runs, runId), text.join(""));
}

describe("listRuns", () => {
  it("a completed turn in a conversation still held is open; released, completed", () => {
    const conversation = "20261207T010000Z-0a0b0c0d";
    const midTurn = "20261207T010100Z-0a0b0c0e";
    journal(conversation, finished);
    journal(midTurn);
    const locks = [lockRun(lockPath(runs, conversation)), lockRun(lockPath(runs, midTurn))];
    expect(listRuns(runs).map((run) => [run.runId, run.status])).toEqual([
      [midTurn, "running"],
      [conversation, "open"],
    ]);
    for (const lock of locks) lock.release();
    expect(listRuns(runs).map((run) => [run.runId, run.status])).toEqual([
      [midTurn, "unfinished"],
      [conversation, "completed"],
    ]);
  });
});

describe("runIdsNewestFirst", () => {
  const startedAt = (runId: string, at: string): void => {
    writeFileSync(journalPath(runs, runId), `${JSON.stringify(started(runId, at))}\n`);
  };

  it("orders runs of the same second by the start their journals record, not by the id's random part", () => {
    const earlier = "20261207T193842Z-ffffffff";
    const later = "20261207T193842Z-00000000";
    const before = "20261207T193841Z-ffffffff";
    const after = "20261207T193843Z-00000000";
    startedAt(earlier, "2026-12-07T19:38:42.419Z");
    startedAt(later, "2026-12-07T19:38:42.654Z");
    startedAt(before, "2026-12-07T19:38:41.999Z");
    startedAt(after, "2026-12-07T19:38:43.001Z");
    expect(runIdsNewestFirst(runs)).toEqual([after, later, earlier, before]);
  });

  it("a journal of that second that cannot be read goes after those that can", () => {
    const readable = "20261207T193842Z-00000000";
    const broken = "20261207T193842Z-ffffffff";
    const alsoBroken = "20261207T193842Z-88888888";
    startedAt(readable, "2026-12-07T19:38:42.100Z");
    writeFileSync(journalPath(runs, broken), "not json\n");
    writeFileSync(journalPath(runs, alsoBroken), "");
    // Two unreadable ones keep the ids' order among themselves.
    expect(runIdsNewestFirst(runs)).toEqual([readable, broken, alsoBroken]);
  });
});

describe("listRuns' prompt", () => {
  it("is the person's words, without the files a mention attached", () => {
    const runId = "20261207T193842Z-0a0b0c0d";
    const prompt =
      "fix the failing test in @tests/test_ops.py\n\nAttached by the person, the text of tests/test_ops.py (2 lines) as read_file returns it:\n```\nimport unittest\nSECRET = 1\n```";
    writeFileSync(journalPath(runs, runId), `${JSON.stringify(started(runId, time, prompt))}\n`);
    expect(listRuns(runs).map((run) => run.prompt)).toEqual([
      "fix the failing test in @tests/test_ops.py",
    ]);
  });
});
