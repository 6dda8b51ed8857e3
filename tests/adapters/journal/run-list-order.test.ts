/**
 * Newest first, even within one second: a run id names its start to the second, so two runs
 * started in the same second are ordered by the start time their journals record (to the ms).
 * `agent undo` and `agent resume` take the first of this order as "the newest run".
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { journalPath, listRuns, runIdsNewestFirst } from "../../../src/adapters/journal/index.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/workspace.js";

let dir: TempWorkspace;
let runs: string;
beforeEach(async () => {
  dir = await makeTempWorkspace("agent-run-order-");
  runs = join(dir.outside, "runs");
  mkdirSync(runs);
});
afterEach(() => dir.cleanup());

function journal(runId: string, time: string): void {
  const started = {
    v: 1,
    time,
    type: "run_started",
    prompt: "task",
    runId,
    workspace: "/ws",
    chapter: 3,
  };
  writeFileSync(journalPath(runs, runId), `${JSON.stringify(started)}\n`);
}

describe("runIdsNewestFirst", () => {
  it("orders runs of the same second by the start their journals record, not by the id's random part", () => {
    const earlier = "20261207T193842Z-ffffffff";
    const later = "20261207T193842Z-00000000";
    const before = "20261207T193841Z-ffffffff";
    const after = "20261207T193843Z-00000000";
    journal(earlier, "2026-12-07T19:38:42.419Z");
    journal(later, "2026-12-07T19:38:42.654Z");
    journal(before, "2026-12-07T19:38:41.999Z");
    journal(after, "2026-12-07T19:38:43.001Z");
    expect(runIdsNewestFirst(runs)).toEqual([after, later, earlier, before]);
  });

  it("a journal of that second that cannot be read goes after those that can", () => {
    const readable = "20261207T193842Z-00000000";
    const broken = "20261207T193842Z-ffffffff";
    journal(readable, "2026-12-07T19:38:42.100Z");
    writeFileSync(journalPath(runs, broken), "not json\n");
    expect(runIdsNewestFirst(runs)).toEqual([readable, broken]);
  });
});

describe("listRuns' prompt", () => {
  it("is the person's words, without the files a mention attached", () => {
    const runId = "20261207T193842Z-0a0b0c0d";
    const prompt =
      "fix the failing test in @tests/test_ops.py\n\nAttached by the person, the text of tests/test_ops.py (2 lines) as read_file returns it:\n```\nimport unittest\nSECRET = 1\n```";
    const started = {
      v: 1,
      time: "2026-12-07T19:38:42.100Z",
      type: "run_started",
      prompt,
      runId,
      workspace: "/ws",
      chapter: 3,
    };
    writeFileSync(journalPath(runs, runId), `${JSON.stringify(started)}\n`);
    expect(listRuns(runs).map((run) => run.prompt)).toEqual([
      "fix the failing test in @tests/test_ops.py",
    ]);
  });
});
