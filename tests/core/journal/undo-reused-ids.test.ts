/**
 * Undo when a call id comes back within one run: after `/clear` or a compaction the conversation
 * no longer holds the ids it used (and some servers number calls per reply, `call_0`), so two calls
 * of one journal can share an id. Each undo here goes round the journal as the CLI's does: plan,
 * undo, append its call_undone records, plan again from the journal as it now is.
 */
import { describe, expect, it } from "vitest";
import type { StoredJournalRecord } from "../../../src/core/journal/journal-records.js";
import { undoCalls, undoLine } from "../../../src/core/journal/undo-calls.js";
import { planUndo } from "../../../src/core/journal/undo-plan.js";
import type { CurrentFile, WorkspaceRestorer } from "../../../src/core/ports/filesystem.js";

const H = (letter: string): string => letter.repeat(64);

/** A workspace of hashes: a kept image's one byte is the first letter of the hash it had. */
class FakeWorkspace implements WorkspaceRestorer {
  readonly files = new Map<string, string>();
  current(file: string): Promise<CurrentFile> {
    const sha256 = this.files.get(file);
    return Promise.resolve(sha256 === undefined ? { kind: "absent" } : { kind: "file", sha256 });
  }
  restore(file: string, bytes: Uint8Array, expected: string): Promise<void> {
    expect(this.files.get(file)).toBe(expected);
    this.files.set(file, H(String.fromCharCode(bytes[0] ?? 0)));
    return Promise.resolve();
  }
  remove(file: string, expected: string): Promise<void> {
    expect(this.files.get(file)).toBe(expected);
    this.files.delete(file);
    return Promise.resolve();
  }
  removeEmptyFolder(): Promise<boolean> {
    return Promise.resolve(false);
  }
}

/** A file tool's call as the runner journals it, and its write landed in `workspace`. */
function write(
  workspace: FakeWorkspace,
  callId: string,
  file: string,
  from: string | undefined,
  to: string,
): StoredJournalRecord[] {
  workspace.files.set(file, to);
  const tool = from === undefined ? "write_file" : "edit_file";
  return [
    { type: "call_prepared", callId, tool, canonicalArguments: "{}" },
    { type: "execution_started", callId, tool, effect: "write", beforeImages: true },
    {
      type: "file_before",
      callId,
      file,
      existed: from !== undefined,
      ...(from === undefined
        ? {}
        : { beforeSha256: from, beforeSize: 1, image: { offset: 0, length: 1 } }),
      afterSha256: to,
      afterSize: 1,
    },
    { type: "file_written", callId, file, sha256: to },
  ];
}

const read = (callId: string): StoredJournalRecord[] => [
  { type: "execution_started", callId, tool: "read_file", effect: "read" },
];

const shell = (callId: string, command: string): StoredJournalRecord[] => [
  { type: "call_prepared", callId, tool: "shell", canonicalArguments: JSON.stringify({ command }) },
  { type: "execution_started", callId, tool: "shell", effect: "execute" },
];

const cleared: StoredJournalRecord = { type: "history_compacted", reason: "clear", messages: [] };
const compacted: StoredJournalRecord = {
  type: "history_compacted",
  reason: "command",
  messages: [],
};

/** `/undo N`: the lines it shows, its call_undone records appended to `journal`. */
async function undo(
  journal: StoredJournalRecord[],
  workspace: FakeWorkspace,
  count: number,
): Promise<{ lines: string[]; asked: number }> {
  const report = await undoCalls(planUndo(journal, count), {
    files: workspace,
    image: (_image, sha256) => new Uint8Array([sha256.charCodeAt(0)]),
    record: ({ callId, occurrence, tool, result, detail }) => {
      journal.push({ type: "call_undone", callId, occurrence, tool, result, detail });
      return Promise.resolve();
    },
  });
  return { lines: report.decisions.map(undoLine), asked: report.asked };
}

const NOTHING = { lines: [], asked: 1 };

describe("undo with a call id used again in the run", () => {
  it("after an undo and /clear, takes back the newer call of the id, then has nothing left", async () => {
    const workspace = new FakeWorkspace();
    const journal: StoredJournalRecord[] = [
      { type: "run_started", prompt: "" },
      ...write(workspace, "call_0", "first.txt", undefined, H("1")),
    ];
    expect(await undo(journal, workspace, 1)).toEqual({
      lines: ["undid write_file (call_0): removed first.txt, which the call created"],
      asked: 1,
    });
    journal.push(cleared, ...write(workspace, "call_0", "second.txt", undefined, H("2")));

    expect(await undo(journal, workspace, 1)).toEqual({
      lines: ["undid write_file (call_0): removed second.txt, which the call created"],
      asked: 1,
    });
    expect([...workspace.files.keys()]).toEqual([]);
    expect(journal.filter((record) => record.type === "call_undone")).toEqual([
      {
        type: "call_undone",
        callId: "call_0",
        occurrence: 1,
        tool: "write_file",
        result: "restored",
        detail: "removed first.txt, which the call created",
      },
      {
        type: "call_undone",
        callId: "call_0",
        occurrence: 2,
        tool: "write_file",
        result: "restored",
        detail: "removed second.txt, which the call created",
      },
    ]);
    expect(await undo(journal, workspace, 1)).toEqual(NOTHING);
  });

  it.each([
    ["/clear", [cleared]],
    ["/compact", [compacted]],
    ["a legacy /clear", [{ type: "conversation_cleared" } as const]],
    ["a resume", [{ type: "run_resumed" } as const]],
    ["nothing between (a failed turn rolled back)", []],
  ] as const)(
    "after %s, undo 2 takes back both calls of the id, newest first",
    async (_name, between) => {
      const workspace = new FakeWorkspace();
      const journal: StoredJournalRecord[] = [
        { type: "run_started", prompt: "" },
        ...write(workspace, "call_0", "first.txt", undefined, H("1")),
        ...between,
        ...write(workspace, "call_0", "second.txt", undefined, H("2")),
      ];
      expect(await undo(journal, workspace, 2)).toEqual({
        lines: [
          "undid write_file (call_0): removed second.txt, which the call created",
          "undid write_file (call_0): removed first.txt, which the call created",
        ],
        asked: 2,
      });
      expect([...workspace.files.keys()]).toEqual([]);
      expect(await undo(journal, workspace, 1)).toEqual(NOTHING);
    },
  );

  it("after /clear, one undo at a time goes from the newer call of the id to the older", async () => {
    const workspace = new FakeWorkspace();
    const journal: StoredJournalRecord[] = [
      { type: "run_started", prompt: "" },
      ...write(workspace, "call_0", "first.txt", undefined, H("1")),
      cleared,
      ...write(workspace, "call_0", "second.txt", undefined, H("2")),
    ];
    expect((await undo(journal, workspace, 1)).lines).toEqual([
      "undid write_file (call_0): removed second.txt, which the call created",
    ]);
    expect([...workspace.files.keys()]).toEqual(["first.txt"]);
    expect(await undo(journal, workspace, 3)).toEqual({
      lines: ["undid write_file (call_0): removed first.txt, which the call created"],
      asked: 3,
    });
    expect([...workspace.files.keys()]).toEqual([]);
  });

  it("after /compact, takes back two edits of one file and a command under one id, each once", async () => {
    const workspace = new FakeWorkspace();
    workspace.files.set("a.txt", H("x"));
    const journal: StoredJournalRecord[] = [
      { type: "run_started", prompt: "" },
      ...write(workspace, "call_1", "a.txt", H("x"), H("y")),
      ...read("call_2"),
      compacted,
      ...read("call_1"),
      ...shell("call_2", "make"),
      compacted,
      ...write(workspace, "call_1", "a.txt", H("y"), H("z")),
    ];
    expect(await undo(journal, workspace, 1)).toEqual({
      lines: ["undid edit_file (call_1): a.txt holds again what it held before the call"],
      asked: 1,
    });
    expect(workspace.files.get("a.txt")).toBe(H("y"));
    expect(await undo(journal, workspace, 5)).toEqual({
      lines: [
        "cannot undo shell `make` (call_2): it ran a command, and a command's effects cannot be undone; it is left as it ran",
        "undid edit_file (call_1): a.txt holds again what it held before the call",
      ],
      asked: 5,
    });
    expect(workspace.files.get("a.txt")).toBe(H("x"));
    expect(
      journal.flatMap((record) =>
        record.type === "call_undone" ? [[record.callId, record.occurrence, record.result]] : [],
      ),
    ).toEqual([
      ["call_1", 3, "restored"],
      ["call_2", 2, "not_undoable"],
      ["call_1", 1, "restored"],
    ]);
    expect(await undo(journal, workspace, 1)).toEqual(NOTHING);
  });

  it("tries a refused call of a repeated id again, and only that one", async () => {
    const workspace = new FakeWorkspace();
    const journal: StoredJournalRecord[] = [
      { type: "run_started", prompt: "" },
      ...write(workspace, "call_0", "first.txt", undefined, H("1")),
      cleared,
      ...write(workspace, "call_0", "second.txt", undefined, H("2")),
    ];
    workspace.files.set("second.txt", H("e"));
    expect((await undo(journal, workspace, 1)).lines).toEqual([
      "not undone: write_file (call_0): second.txt changed since the call (it no longer holds what the call wrote: someone else edited it); it was left as it is",
    ]);
    workspace.files.set("second.txt", H("2"));
    expect((await undo(journal, workspace, 1)).lines).toEqual([
      "undid write_file (call_0): removed second.txt, which the call created",
    ]);
    expect(workspace.files.has("first.txt")).toBe(true);
  });
});

describe("call_undone records written before they named the call's occurrence", () => {
  /** As the previous version wrote it: the call id alone. */
  const oldUndone = (callId: string, detail: string): StoredJournalRecord => ({
    type: "call_undone",
    callId,
    tool: "write_file",
    result: "restored",
    detail,
  });

  it("mean the call that was newest under the id when they were written: Case A", async () => {
    const workspace = new FakeWorkspace();
    const journal: StoredJournalRecord[] = [
      { type: "run_started", prompt: "" },
      ...write(workspace, "call_0", "first.txt", undefined, H("1")),
      oldUndone("call_0", "removed first.txt, which the call created"),
      cleared,
      ...write(workspace, "call_0", "second.txt", undefined, H("2")),
    ];
    workspace.files.delete("first.txt");
    expect(await undo(journal, workspace, 2)).toEqual({
      lines: ["undid write_file (call_0): removed second.txt, which the call created"],
      asked: 2,
    });
    expect([...workspace.files.keys()]).toEqual([]);
  });

  it("mean the call that was newest under the id when they were written: Case B", async () => {
    const workspace = new FakeWorkspace();
    const journal: StoredJournalRecord[] = [
      { type: "run_started", prompt: "" },
      ...write(workspace, "call_0", "first.txt", undefined, H("1")),
      cleared,
      ...write(workspace, "call_0", "second.txt", undefined, H("2")),
      // A read under the id: that version's undo never counted reads.
      ...read("call_0"),
      // Its `/undo 2` took back only the newer write.
      oldUndone("call_0", "removed second.txt, which the call created"),
    ];
    workspace.files.delete("second.txt");
    expect(await undo(journal, workspace, 2)).toEqual({
      lines: ["undid write_file (call_0): removed first.txt, which the call created"],
      asked: 2,
    });
    expect([...workspace.files.keys()]).toEqual([]);
  });
});
