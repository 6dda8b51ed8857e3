/**
 * `lockAndReplayRun`, what `agent resume` reads a run with: the journal replayed as it is read,
 * and a run that does not replay refused with its path and line, untouched, its lock released.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { journalPath, lockPath } from "../../../src/adapters/journal/index.js";
import { lockAndReplayRun } from "../../../src/bootstrap/open/resume-plan.js";
import type { RunStore } from "../../../src/bootstrap/open/run-store.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/workspace.js";

const RUN = "20261207T010000Z-0a0b0c0d";
const time = "2026-12-07T01:00:00.000Z";
const started = {
  v: 1,
  time,
  type: "run_started",
  prompt: "task",
  runId: RUN,
  workspace: "/ws",
  chapter: 3,
};
const reply = (id: string) => ({
  v: 1,
  time,
  type: "model_reply",
  message: {
    role: "assistant",
    content: null,
    toolCalls: [{ id, name: "read_file", arguments: '{"path":"a.txt"}' }],
  },
});
const lines = (...records: object[]): string =>
  records.map((record) => `${JSON.stringify(record)}\n`).join("");

let dir: TempWorkspace;
let store: RunStore;
beforeEach(async () => {
  dir = await makeTempWorkspace("agent-resume-plan-");
  const runs = join(dir.outside, "runs");
  mkdirSync(runs);
  store = { stateRoot: dir.outside, runs, workspaceState: dir.outside };
});
afterEach(() => dir.cleanup());

describe("lockAndReplayRun", () => {
  it("refuses a run that does not replay with its path and line, before dropping a cut tail", () => {
    const path = journalPath(store.runs, RUN);
    // The reply's call is never answered before the next user message: the records parse one by
    // one but do not make a run. A crash's cut tail follows.
    const text = `${lines(started, reply("call_1"), { v: 1, time, type: "user_message", content: "next" })}{"v":1,"ti`;
    writeFileSync(path, text);
    const cutTails: number[] = [];

    expect(() => lockAndReplayRun(store, RUN, path, (bytes) => cutTails.push(bytes))).toThrow(
      `the run journal ${path} cannot be replayed at line 3: call call_1 has no result before the next step; it was left as it is`,
    );
    expect(cutTails).toEqual([]);
    expect(readFileSync(path, "utf8")).toBe(text);
    expect(existsSync(lockPath(store.runs, RUN))).toBe(false);
  });

  it("replays a run it can go on with, its cut tail dropped after it is told", () => {
    const path = journalPath(store.runs, RUN);
    const whole = lines(started, reply("call_1"));
    writeFileSync(path, `${whole}{"v":1,"ti`);
    const cutTails: number[] = [];

    const { lock, contents } = lockAndReplayRun(store, RUN, path, (bytes) => cutTails.push(bytes));
    try {
      expect(cutTails).toEqual([10]);
      expect(readFileSync(path, "utf8")).toBe(whole);
      expect(contents.start).toMatchObject({ runId: RUN, prompt: "task" });
      expect(contents.replayed.status).toBe("unfinished");
      expect(contents.replayed.openCalls).toEqual([
        {
          call: { id: "call_1", name: "read_file", arguments: '{"path":"a.txt"}' },
          state: "not_started",
        },
      ]);
    } finally {
      lock.release();
    }
  });
});
