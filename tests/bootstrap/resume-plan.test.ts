/**
 * Which run plain `agent resume` goes on with, from real journals: the newest when it can go on
 * (a failed one too), otherwise an older unfinished one with the newest named.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileRunJournal, runsDirectory } from "../../src/adapters/journal/index.js";
import type { JournalRecord } from "../../src/core/journal/journal-records.js";
import { runToResume } from "../../src/bootstrap/open/resume-plan.js";
import type { RunStore } from "../../src/bootstrap/open/run-store.js";
import { makeTempWorkspace, type TempWorkspace } from "../support/workspace.js";

const OLDER = "20261130T230000Z-0a0b0c0d";
const NEWER = "20261130T234000Z-1a1b1c1d";

const ENDINGS: Record<string, JournalRecord[]> = {
  unfinished: [],
  completed: [{ type: "run_finished", finalText: "done" }],
  failed: [{ type: "run_failed", error: "Model request to http://127.0.0.1:1/v1 timed out" }],
  cancelled: [{ type: "run_cancelled" }],
  waiting: [{ type: "run_waiting", callId: "c1", request: {} }],
};

let dir: TempWorkspace;
let store: RunStore;
beforeEach(async () => {
  dir = await makeTempWorkspace("agent-resume-plan-");
  store = { stateRoot: dir.outside, runs: runsDirectory(dir.outside), workspaceState: dir.outside };
  mkdirSync(store.runs, { recursive: true });
});
afterEach(() => dir.cleanup());

async function writeRun(runId: string, status: keyof typeof ENDINGS): Promise<void> {
  const journal = FileRunJournal.open(join(store.runs, `${runId}.jsonl`), {
    runId,
    chapter: 3,
    profile: "P03",
    model: "test-model",
    workspace: "/ws",
    policy: "test",
    sandbox: "auto",
    network: false,
  });
  await journal.append({ type: "run_started", prompt: `task of ${runId}` });
  for (const record of ENDINGS[status] ?? []) await journal.append(record);
  journal.close();
}

describe("runToResume", () => {
  it.each([
    ["failed", "unfinished", { runId: NEWER }],
    ["failed", "completed", { runId: NEWER }],
    ["unfinished", "waiting", { runId: NEWER }],
    ["waiting", "completed", { runId: NEWER }],
    ["completed", "unfinished", { runId: OLDER, passedOver: "completed" }],
    ["cancelled", "waiting", { runId: OLDER, passedOver: "cancelled" }],
    ["completed", "failed", undefined],
    ["cancelled", "cancelled", undefined],
  ] as const)("newest %s, older %s", async (newer, older, expected) => {
    await writeRun(OLDER, older);
    await writeRun(NEWER, newer);
    const picked = runToResume(store);
    expect(
      picked === undefined
        ? undefined
        : {
            runId: picked.runId,
            ...(picked.passedOver === undefined
              ? {}
              : { passedOver: picked.passedOver.status, newest: picked.passedOver.runId }),
          },
    ).toEqual(
      expected === undefined || !("passedOver" in expected)
        ? expected
        : { ...expected, newest: NEWER },
    );
  });
});
