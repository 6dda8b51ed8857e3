/** `agent runs`' status of a run a live process holds: running mid-turn, open between turns. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { journalPath, listRuns, lockPath, lockRun } from "../../../src/adapters/journal/index.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/workspace.js";

const time = "2026-12-07T01:00:00.000Z";
const started = (runId: string) => ({
  v: 1,
  time,
  type: "run_started",
  prompt: "task",
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
