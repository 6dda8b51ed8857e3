import { fstatSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  FileRunJournal,
  GROUP_FLUSH_MS,
  readJournalFile,
  runsDirectory,
} from "../../../src/adapters/journal/index.js";
import type { JournalRecord } from "../../../src/core/journal/journal-records.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/workspace.js";
import { settlesSoon } from "../../support/settles-soon.js";

const CONTEXT = {
  runId: "20261206T203000Z-0a0b0c0d",
  chapter: 3,
  profile: "P03",
  model: "test-model",
  workspace: "/ws",
  policy: "test",
  sandbox: "auto",
  network: false,
};
const NOW = (): Date => new Date("2026-12-06T20:30:00.000Z");
const EFFECT_FREE = { effectFree: true } as const;

const REPLY: JournalRecord = {
  type: "model_reply",
  message: {
    role: "assistant",
    content: null,
    toolCalls: [{ id: "c1", name: "read_file", arguments: '{"path":"a.txt"}' }],
  },
};
const PREPARED: JournalRecord = {
  type: "call_prepared",
  callId: "c1",
  tool: "read_file",
  canonicalArguments: '{"path":"a.txt"}',
};

let dir: TempWorkspace;
let path: string;
beforeEach(async () => {
  dir = await makeTempWorkspace("agent-group-flush-");
  path = join(runsDirectory(dir.outside), `${CONTEXT.runId}.jsonl`);
});
afterEach(() => {
  vi.useRealTimers();
  return dir.cleanup();
});

/** The group flushes, held until the test settles them. */
function heldFlush() {
  const flushes: { fd: number; settle: (error?: Error) => void }[] = [];
  const flush = (fd: number): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      flushes.push({
        fd,
        settle: (error) => {
          if (error === undefined) resolve();
          else reject(error);
        },
      });
    });
  return { flush, flushes };
}

function typesOnDisk(): string[] {
  return readJournalFile(path).records.map((record) => record.type);
}

/** A journal whose run_started is written and flushed; `flushes[0]` was that flush. */
async function startedJournal() {
  const held = heldFlush();
  const journal = FileRunJournal.open(path, CONTEXT, NOW, held.flush);
  await journal.append({ type: "run_started", prompt: "read a.txt" });
  held.flushes[0]?.settle();
  return { journal, ...held };
}

describe("FileRunJournal's group flushes", () => {
  it("resolves an effect-free record once it is written, without waiting for a flush", async () => {
    const { journal, flushes } = await startedJournal();
    // Had either waited for a flush, it would wait for one of these, which no one settles.
    await journal.append(REPLY, EFFECT_FREE);
    await journal.append(PREPARED, EFFECT_FREE);
    expect(flushes).toHaveLength(1);
    expect(typesOnDisk()).toEqual(["run_started", "model_reply", "call_prepared"]);
    journal.close();
  });

  it("flushes the effect-free records at close, and closes the descriptor only once that flush has settled", async () => {
    const { journal, flushes } = await startedJournal();
    await journal.append(REPLY, EFFECT_FREE);
    const journalInode = statSync(path).ino;
    journal.close();
    await settlesSoon(Promise.resolve());
    expect(flushes).toHaveLength(2);
    const fd = flushes[1]?.fd ?? -1;
    const stillOpen = (): boolean => {
      try {
        return fstatSync(fd).ino === journalInode;
      } catch {
        return false;
      }
    };
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(stillOpen()).toBe(true);
    flushes[1]?.settle();
    for (let turn = 0; turn < 10_000 && stillOpen(); turn += 1) {
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    expect(stillOpen()).toBe(false);
  });

  it("closes at once, with no flush, when every record is already on disk", async () => {
    const { journal, flushes } = await startedJournal();
    await journal.append({ type: "run_finished", finalText: "done" });
    journal.close();
    await settlesSoon(Promise.resolve());
    expect(flushes).toHaveLength(1);
  });

  it("flushes effect-free records within GROUP_FLUSH_MS when nothing else does, once for the group", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { journal, flushes } = await startedJournal();
    await journal.append(REPLY, EFFECT_FREE);
    await journal.append(PREPARED, EFFECT_FREE);
    vi.advanceTimersByTime(GROUP_FLUSH_MS - 1);
    await settlesSoon(Promise.resolve());
    expect(flushes).toHaveLength(1);
    vi.advanceTimersByTime(1);
    await settlesSoon(Promise.resolve());
    expect(flushes).toHaveLength(2);
    flushes[1]?.settle();
    journal.close();
    await settlesSoon(Promise.resolve());
    expect(flushes).toHaveLength(2);
  });

  it("a record that is not effect-free waits for the group's flush in flight before it is written", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { journal, flushes } = await startedJournal();
    await journal.append(REPLY, EFFECT_FREE);
    vi.advanceTimersByTime(GROUP_FLUSH_MS);
    await settlesSoon(Promise.resolve());
    expect(flushes).toHaveLength(2);

    const started = journal.append({
      type: "execution_started",
      callId: "c1",
      tool: "write_file",
      effect: "write",
      operationId: "op_1",
    });
    expect(await settlesSoon(started)).toBe(false);
    expect(typesOnDisk()).toEqual(["run_started", "model_reply"]);
    flushes[1]?.settle();
    await started;
    expect(typesOnDisk()).toEqual(["run_started", "model_reply", "execution_started"]);
    journal.close();
  });

  it("a record before an effect shares the outcome of a group flush that started beside its own", async () => {
    // Linux tells a write-back error to one fsync of the file only: had the record resolved on
    // its own flush, a failure reported to the timer's flush would have let its effect run.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { journal, flushes } = await startedJournal();
    await journal.append(REPLY, EFFECT_FREE);
    const started = journal.append({
      type: "execution_started",
      callId: "c1",
      tool: "write_file",
      effect: "write",
      operationId: "op_1",
    });
    // The group's timer fires while the record is on its way: that flush runs beside its own.
    vi.advanceTimersByTime(GROUP_FLUSH_MS);
    await vi.waitFor(() => {
      expect(typesOnDisk()).toEqual(["run_started", "model_reply", "execution_started"]);
    });
    expect(flushes).toHaveLength(2);
    expect(await settlesSoon(started)).toBe(false);
    flushes[1]?.settle(new Error("EIO: i/o error, fdatasync"));
    await expect(started).rejects.toThrow("EIO");
    await expect(journal.append(PREPARED, EFFECT_FREE)).rejects.toThrow("EIO");
    journal.close();
  });

  it("a failed group flush fails every later record, effect-free or not, and none is written", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { journal, flushes } = await startedJournal();
    await journal.append(REPLY, EFFECT_FREE);
    vi.advanceTimersByTime(GROUP_FLUSH_MS);
    await settlesSoon(Promise.resolve());
    flushes[1]?.settle(new Error("EIO: i/o error, fdatasync"));
    await settlesSoon(Promise.resolve());
    await expect(journal.append(PREPARED, EFFECT_FREE)).rejects.toThrow("EIO");
    await expect(journal.append({ type: "run_finished", finalText: "x" })).rejects.toThrow("EIO");
    journal.close();
    expect(typesOnDisk()).toEqual(["run_started", "model_reply"]);
  });
});
