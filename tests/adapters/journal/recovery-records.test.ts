import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileRunJournal, readJournalFile } from "../../../src/adapters/journal/index.js";

const CONTEXT = {
  runId: "20261201T150000Z-0a0b0c0d",
  chapter: 4,
  profile: "P04",
  model: "test-model",
  workspace: "/ws",
  policy: "test",
  sandbox: "required",
  network: false,
};

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "agent-recovery-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("the journal file keeps the recovery record", () => {
  it("reads back the reserved operation id and the process id; an older execution_started without one still reads", async () => {
    const path = join(dir, `${CONTEXT.runId}.jsonl`);
    const journal = FileRunJournal.open(path, CONTEXT, () => new Date("2026-12-01T15:00:00Z"));
    await journal.append({ type: "run_started", prompt: "test" });
    await journal.append({
      type: "execution_started",
      callId: "c1",
      tool: "run_command",
      operationId: "op_1",
    });
    await journal.append({ type: "process_started", callId: "c1", operationId: "op_1", pid: 4242 });
    journal.close();
    appendFileSync(
      path,
      '{"v":1,"time":"2026-12-01T15:00:01Z","type":"execution_started","callId":"c0","tool":"shell"}\n',
    );
    expect(readJournalFile(path).records.slice(1)).toEqual([
      {
        v: 1,
        time: "2026-12-01T15:00:00.000Z",
        type: "execution_started",
        callId: "c1",
        tool: "run_command",
        operationId: "op_1",
      },
      {
        v: 1,
        time: "2026-12-01T15:00:00.000Z",
        type: "process_started",
        callId: "c1",
        operationId: "op_1",
        pid: 4242,
      },
      {
        v: 1,
        time: "2026-12-01T15:00:01Z",
        type: "execution_started",
        callId: "c0",
        tool: "shell",
      },
    ]);
  });
});
