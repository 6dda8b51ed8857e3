import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  appendFileSync,
  existsSync,
  fstatSync,
  linkSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  dropCutTail,
  FileRunJournal,
  listRuns,
  lockRun,
  readJournalFile,
  RunLockedError,
  runsDirectory,
} from "../../../src/adapters/journal/index.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/workspace.js";
import { settlesSoon } from "../../support/settles-soon.js";

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

let dir: TempWorkspace;
let runs: string;
let path: string;
beforeEach(async () => {
  dir = await makeTempWorkspace("agent-journal-");
  runs = runsDirectory(dir.outside);
  path = join(runs, `${CONTEXT.runId}.jsonl`);
});
afterEach(() => dir.cleanup());

async function writeRun(): Promise<void> {
  const journal = FileRunJournal.open(path, CONTEXT, NOW);
  await journal.append({ type: "run_started", prompt: "list files" });
  await journal.append({
    type: "call_prepared",
    callId: "c1",
    tool: "glob",
    canonicalArguments: '{"pattern":"*"}',
  });
  journal.close();
}

describe("FileRunJournal before its run_started", () => {
  it("writes a record made before the run started (a /model switch) after run_started, so the run stays readable", async () => {
    const journal = FileRunJournal.open(path, CONTEXT, NOW);
    await journal.append({ type: "model_switched", model: "other-model" });
    expect(statSync(path).size).toBe(0);
    await journal.append({ type: "run_started", prompt: "list files" });
    await journal.append({ type: "run_finished", finalText: "done" });
    journal.close();
    expect(readJournalFile(path).records.map((record) => record.type)).toEqual([
      "run_started",
      "model_switched",
      "run_finished",
    ]);
    expect(listRuns(runs).map((run) => [run.runId, run.status, run.prompt])).toEqual([
      [CONTEXT.runId, "completed", "list files"],
    ]);
  });

  it("writes nothing for a run that never started", async () => {
    const journal = FileRunJournal.open(path, CONTEXT, NOW);
    await journal.append({ type: "model_switched", model: "other-model" });
    await journal.append({ type: "run_failed", error: "gone" });
    journal.close();
    expect(statSync(path).size).toBe(0);
  });

  it("goes on appending to a journal that already started (agent resume)", async () => {
    await writeRun();
    const journal = FileRunJournal.open(path, CONTEXT, NOW);
    await journal.append({ type: "model_switched", model: "other-model" });
    journal.close();
    expect(readJournalFile(path).records.map((record) => record.type)).toEqual([
      "run_started",
      "call_prepared",
      "model_switched",
    ]);
  });
});

describe("FileRunJournal's first flush", () => {
  /** A flush the test settles: what resolves before it did, and what waits. */
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

  it("resolves run_started once written, while its flush is in flight; the next record waits for the flush", async () => {
    const { flush, flushes } = heldFlush();
    const journal = FileRunJournal.open(path, CONTEXT, NOW, flush);
    await journal.append({ type: "run_started", prompt: "list files" });
    expect(flushes).toHaveLength(1);
    expect(readJournalFile(path).records.map((record) => record.type)).toEqual(["run_started"]);

    const reply = journal.append({
      type: "model_reply",
      message: { role: "assistant", content: "done", toolCalls: [] },
    });
    expect(await settlesSoon(reply)).toBe(false);
    expect(readJournalFile(path).records.map((record) => record.type)).toEqual(["run_started"]);

    flushes[0]?.settle();
    await reply;
    journal.close();
    expect(readJournalFile(path).records.map((record) => record.type)).toEqual([
      "run_started",
      "model_reply",
    ]);
  });

  it("a failed flush of run_started fails every later record, which is never written", async () => {
    const { flush, flushes } = heldFlush();
    const journal = FileRunJournal.open(path, CONTEXT, NOW, flush);
    await journal.append({ type: "run_started", prompt: "list files" });
    flushes[0]?.settle(new Error("EIO: i/o error, fdatasync"));
    const reply = {
      type: "model_reply",
      message: { role: "assistant", content: "x", toolCalls: [] },
    } as const;
    await expect(journal.append(reply)).rejects.toThrow("EIO: i/o error, fdatasync");
    await expect(journal.append({ type: "run_failed", error: "x" })).rejects.toThrow("EIO");
    journal.close();
    expect(readJournalFile(path).records.map((record) => record.type)).toEqual(["run_started"]);
  });

  it("a record waiting for the first flush when the journal closes is refused, not written", async () => {
    const { flush, flushes } = heldFlush();
    const journal = FileRunJournal.open(path, CONTEXT, NOW, flush);
    await journal.append({ type: "run_started", prompt: "list files" });
    const late = journal.append({ type: "run_finished", finalText: "done" });
    journal.close();
    flushes[0]?.settle();
    await expect(late).rejects.toThrow(`The run journal ${path} is closed`);
    expect(readJournalFile(path).records.map((record) => record.type)).toEqual(["run_started"]);
  });

  it("closes the descriptor only once the flush in flight has settled", async () => {
    const { flush, flushes } = heldFlush();
    const journal = FileRunJournal.open(path, CONTEXT, NOW, flush);
    await journal.append({ type: "run_started", prompt: "list files" });
    const fd = flushes[0]?.fd ?? -1;
    const journalInode = statSync(path).ino;
    /** Whether `fd` still names the journal (once closed, the number may name another file). */
    const stillOpen = (): boolean => {
      try {
        return fstatSync(fd).ino === journalInode;
      } catch {
        return false;
      }
    };
    journal.close();
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(stillOpen()).toBe(true);
    flushes[0]?.settle();
    for (let turn = 0; turn < 10_000 && stillOpen(); turn += 1) {
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    expect(stillOpen()).toBe(false);
  });
});

describe("FileRunJournal", () => {
  it("refuses a record that would make the journal too big to read back; the journal stays readable", async () => {
    await writeRun();
    const journal = FileRunJournal.open(path, CONTEXT, NOW);
    // 11 Mi control characters: each becomes six bytes of JSON escape, 66 MiB in all.
    const huge = "\u0001".repeat(11 * 1024 * 1024);
    await expect(
      journal.append({
        type: "model_reply",
        message: { role: "assistant", content: huge, toolCalls: [] },
      }),
    ).rejects.toThrow(/would grow past 67108864 bytes with this model_reply record/);
    await journal.append({ type: "run_failed", error: "the journal is full" });
    journal.close();
    expect(readJournalFile(path).records.map((record) => record.type)).toEqual([
      "run_started",
      "call_prepared",
      "run_failed",
    ]);
  });

  it("writes one owner-only JSON line per record, with the run's context and the arguments' SHA-256", async () => {
    await writeRun();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(runs).mode & 0o777).toBe(0o700);
    const lines = readFileSync(path, "utf8").split("\n");
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[0] ?? "")).toEqual({
      v: 1,
      time: "2026-11-30T23:40:00.000Z",
      type: "run_started",
      prompt: "list files",
      ...CONTEXT,
    });
    expect(JSON.parse(lines[1] ?? "")).toMatchObject({
      type: "call_prepared",
      argumentsSha256: createHash("sha256").update('{"pattern":"*"}').digest("hex"),
    });
  });

  it("refuses to open a journal through a symbolic link", () => {
    const target = join(dir.outside, "elsewhere.jsonl");
    writeFileSync(target, "");
    symlinkSync(target, path);
    expect(() => FileRunJournal.open(path, CONTEXT)).toThrow(/symbolic link/);
  });

  it("reads back the records; a last line cut by a crash is reported and can be dropped", async () => {
    await writeRun();
    appendFileSync(path, '{"v":1,"time":"x","type":"execution_sta');
    const contents = readJournalFile(path);
    expect(contents.records.map((record) => record.type)).toEqual(["run_started", "call_prepared"]);
    expect(contents.cutBytes).toBe(39);
    dropCutTail(contents);
    expect(readFileSync(path, "utf8").endsWith("}\n")).toBe(true);
    expect(readJournalFile(path).cutBytes).toBe(0);
  });

  // Between the read and the truncation the name may lead elsewhere: the truncation goes only to
  // a regular file with one name, opened without waiting, never through a second name.
  it("drops a cut tail only from the journal itself, not from a file linked in its place", async () => {
    await writeRun();
    appendFileSync(path, '{"v":1,"time":"x","type":"execution_sta');
    const contents = readJournalFile(path);
    const outside = join(dir.root, "precious.jsonl");
    writeFileSync(outside, readFileSync(path));
    unlinkSync(path);
    linkSync(outside, path);
    expect(() => {
      dropCutTail(contents);
    }).toThrow(/hard links/);
    expect(readFileSync(outside, "utf8")).toBe(readFileSync(path, "utf8"));
    expect(statSync(outside).size).toBe(contents.wholeBytes + contents.cutBytes);
  });

  it("a FIFO put in the journal's place makes dropping the tail fail at once, not wait", async () => {
    await writeRun();
    appendFileSync(path, '{"v":1,"time":"x","type":"execution_sta');
    unlinkSync(path);
    execFileSync("mkfifo", [path]);
    const module = new URL("../../../src/adapters/journal/index.ts", import.meta.url).pathname;
    const script = `const j = await import(${JSON.stringify(module)});
      try { j.dropCutTail({ path: ${JSON.stringify(path)}, cutBytes: 3, wholeBytes: 10 }); console.log("dropped"); }
      catch (error) { console.log("refused: " + error.message); }`;
    const output = execFileSync(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", script],
      { encoding: "utf8", timeout: 20_000 },
    );
    expect(output).toMatch(/^refused: .*FIFO/);
  });

  it.each([
    [
      "a line in the middle that is not JSON",
      "not json\n",
      /cannot be read at line 2: it is not JSON; it was left as it is/,
    ],
    [
      "a record of an unknown type",
      '{"v":1,"time":"t","type":"rm_rf"}\n',
      /line 2: it is not a journal record of version 1/,
    ],
    [
      "a record of another version",
      '{"v":2,"time":"t","type":"run_resumed"}\n',
      /line 2: it is not a journal record of version 1/,
    ],
  ])(
    "refuses %s with its path, and leaves the file as it is",
    async (_label, inserted, message) => {
      await writeRun();
      const original = readFileSync(path, "utf8");
      const [first, ...rest] = original.split("\n");
      const broken = `${first ?? ""}\n${inserted}${rest.join("\n")}`;
      writeFileSync(path, broken);
      expect(() => readJournalFile(path)).toThrow(message);
      expect(() => readJournalFile(path)).toThrow(path);
      expect(readFileSync(path, "utf8")).toBe(broken);
    },
  );

  it("lists runs newest first with their status", async () => {
    await writeRun();
    expect(listRuns(runs)).toEqual([
      {
        runId: CONTEXT.runId,
        path,
        startedAt: "2026-11-30T23:40:00.000Z",
        status: "unfinished",
        prompt: "list files",
      },
    ]);
  });
});

describe("lockRun", () => {
  it("lets one holder in, refuses a second while the first lives, and takes over a dead one's lock", () => {
    const lock = join(runs, "r.lock");
    const first = lockRun(lock);
    expect(() => lockRun(lock)).toThrow(RunLockedError);
    first.release();
    expect(existsSync(lock)).toBe(false);

    // A holder that died (kill -9) leaves its pid behind; no live process has pid 2^22+1 here.
    writeFileSync(lock, `${2 ** 22 + 1}\n`);
    const second = lockRun(lock);
    // The holder's pid, then a nonce that makes this lock file unlike any earlier one, then (on
    // Linux) when the holder started.
    expect(readFileSync(lock, "utf8")).toMatch(
      new RegExp(
        `^${String(process.pid)} [0-9a-f]{16}${process.platform === "linux" ? " [0-9a-f-]+:[0-9]+" : ""}\n$`,
      ),
    );
    second.release();
    expect(existsSync(lock)).toBe(false);
    expect(readdirSync(runs).filter((name) => name.startsWith("r.lock"))).toEqual([]);
  });
});

describe("lockRun and locks it did not make", () => {
  it("refuses a live holder's lock in the older pid-only format, and takes over a dead one's", () => {
    const lock = join(runs, "old.lock");
    writeFileSync(lock, `${String(process.pid)}\n`);
    expect(() => lockRun(lock, process.pid + 1)).toThrow(RunLockedError);
    expect(readFileSync(lock, "utf8")).toBe(`${String(process.pid)}\n`);

    writeFileSync(lock, `${2 ** 22 + 1}\n`);
    lockRun(lock).release();
    expect(readdirSync(runs).filter((name) => name.startsWith("old.lock"))).toEqual([]);
  });

  it("takes over a damaged lock that holds no pid: nobody is there to wait for", () => {
    const lock = join(runs, "damaged.lock");
    writeFileSync(lock, "");
    const held = lockRun(lock);
    expect(readFileSync(lock, "utf8")).toMatch(new RegExp(`^${String(process.pid)} `));
    held.release();
    expect(readdirSync(runs).filter((name) => name.startsWith("damaged.lock"))).toEqual([]);
  });

  it("release removes only its own lock, not one that replaced it", () => {
    const lock = join(runs, "mine.lock");
    const held = lockRun(lock);
    writeFileSync(lock, `${String(process.pid)} 0123456789abcdef\n`);
    held.release();
    expect(readFileSync(lock, "utf8")).toBe(`${String(process.pid)} 0123456789abcdef\n`);
  });
});
