/**
 * The undo logic on its own: which calls an undo takes (newest first, reads left out, calls an
 * earlier undo took or passed over left out, refused ones kept), and what it does with each file
 * given what the call found, what it wrote, and the file now.
 */
import { describe, expect, it } from "vitest";
import type { CurrentFile, WorkspaceRestorer } from "../../../src/core/ports/filesystem.js";
import type { StoredJournalRecord } from "../../../src/core/journal/journal-records.js";
import {
  decideWrite,
  undoCalls,
  undoLine,
  type UndoDecision,
} from "../../../src/core/journal/undo-calls.js";
import { planUndo, type RecordedWrite } from "../../../src/core/journal/undo-plan.js";

const H = (letter: string): string => letter.repeat(64);
const BEFORE = H("b");
const AFTER = H("a");
const OTHER = H("c");

function started(
  callId: string,
  tool: string,
  effect: "read" | "write" | "execute",
): StoredJournalRecord {
  return {
    type: "execution_started",
    callId,
    tool,
    effect,
    ...(tool === "write_file" || tool === "edit_file" ? { beforeImages: true as const } : {}),
  };
}

function before(callId: string, file: string, from: string | undefined, to: string) {
  return {
    type: "file_before",
    callId,
    file,
    existed: from !== undefined,
    ...(from === undefined
      ? {}
      : { beforeSha256: from, beforeSize: 3, image: { offset: 0, length: 3 } }),
    afterSha256: to,
    afterSize: 4,
  } as const;
}

const RUN: StoredJournalRecord[] = [
  { type: "run_started", prompt: "task" },
  { type: "call_prepared", callId: "c1", tool: "write_file", canonicalArguments: "{}" },
  started("c1", "write_file", "write"),
  before("c1", "a.txt", undefined, AFTER),
  { type: "file_written", callId: "c1", file: "a.txt", sha256: AFTER },
  started("c2", "read_file", "read"),
  {
    type: "call_prepared",
    callId: "c3",
    tool: "shell",
    canonicalArguments: '{"command":"npm test"}',
  },
  started("c3", "shell", "execute"),
  started("c4", "edit_file", "write"),
  before("c4", "b.txt", BEFORE, AFTER),
];

describe("planUndo", () => {
  it("takes the newest calls that ran, newest first, leaving reads out", () => {
    const plan = planUndo(RUN, 5);
    expect(plan.calls.map((call) => call.callId)).toEqual(["c4", "c3", "c1"]);
    expect(plan.asked).toBe(5);
    // c4's before record has no file_written: the process may have died before the write.
    expect(plan.calls[0]?.writes).toEqual([
      {
        file: "b.txt",
        before: { sha256: BEFORE, size: 3, image: { offset: 0, length: 3 } },
        afterSha256: AFTER,
        landed: false,
        madeFolders: [],
      },
    ]);
    expect(plan.calls[2]?.writes[0]?.landed).toBe(true);
  });

  it("goes past calls an earlier undo took or passed over, not past one it refused", () => {
    const undone = (callId: string, result: "restored" | "not_undoable" | "refused") =>
      ({ type: "call_undone", callId, tool: "t", result, detail: "" }) as const;
    expect(planUndo([...RUN, undone("c4", "restored")], 1).calls[0]?.callId).toBe("c3");
    expect(
      planUndo([...RUN, undone("c4", "restored"), undone("c3", "not_undoable")], 1).calls[0]
        ?.callId,
    ).toBe("c1");
    expect(planUndo([...RUN, undone("c4", "refused")], 1).calls[0]?.callId).toBe("c4");
  });
});

describe("planUndo counts the calls that changed files", () => {
  const undone = (callId: string) =>
    ({ type: "call_undone", callId, tool: "t", result: "restored", detail: "" }) as const;

  it("an undo after an edit and a test run takes the edit, naming the run on the way", () => {
    const plan = planUndo([...RUN, undone("c4")], 1);
    expect(plan.calls.map((call) => call.callId)).toEqual(["c3", "c1"]);
    expect(plan.changes).toBe(1);
  });

  it("stops at the count: an older command waits for the undo that reaches it", () => {
    const plan = planUndo(RUN, 1);
    expect(plan.calls.map((call) => call.callId)).toEqual(["c4"]);
    expect(plan.changes).toBe(1);
  });

  it("only commands left: nothing to undo, and none of them is passed over for nothing", () => {
    const plan = planUndo([...RUN, undone("c4"), undone("c1")], 1);
    expect(plan.calls).toEqual([]);
    expect(plan.changes).toBe(0);
  });

  it("commands older than the last change taken are left for no undo to name", () => {
    const plan = planUndo([...RUN, undone("c4")], 5);
    expect(plan.calls.map((call) => call.callId)).toEqual(["c3", "c1"]);
    const onlyNewer = planUndo(RUN.slice(0, 5), 5);
    expect(onlyNewer.calls.map((call) => call.callId)).toEqual(["c1"]);
  });
});

describe("decideWrite", () => {
  const edit: RecordedWrite = {
    file: "b.txt",
    before: { sha256: BEFORE, size: 3, image: { offset: 0, length: 3 } },
    afterSha256: AFTER,
    landed: true,
    madeFolders: [],
  };
  const created: RecordedWrite = {
    file: "n.txt",
    before: undefined,
    afterSha256: AFTER,
    landed: true,
    madeFolders: [],
  };
  const file = (sha256: string): CurrentFile => ({ kind: "file", sha256 });
  const absent: CurrentFile = { kind: "absent" };

  it.each([
    ["an edit, the file as the call left it", edit, file(AFTER), "restore"],
    ["an edit, the file as before it", edit, file(BEFORE), "unchanged"],
    ["an edit, the file changed since", edit, file(OTHER), "refused"],
    ["an edit, the file removed since", edit, absent, "refused"],
    ["a created file as the call left it", created, file(AFTER), "remove"],
    ["a created file gone again", created, absent, "unchanged"],
    ["a created file changed since", created, file(OTHER), "refused"],
    [
      "an edit whose earlier content was not kept",
      { ...edit, before: { sha256: BEFORE, size: 9e9, notKept: "it held 9e9 bytes" } },
      file(AFTER),
      "not_undoable",
    ],
    [
      "a file now reached through a link",
      edit,
      {
        kind: "refused",
        reason: "it now leads to another file through a link, which an undo does not follow",
      } as const,
      "refused",
    ],
  ] as const)("%s: %s", (_name, write, current, expected) => {
    const decided = decideWrite(write, current);
    expect(decided.kind === "said" ? decided.undo.result : decided.kind).toBe(expected);
  });

  it("says a write that never landed never happened, and that nothing is to be done", () => {
    const decided = decideWrite({ ...edit, landed: false }, file(BEFORE));
    expect(decided).toEqual({
      kind: "said",
      undo: {
        result: "unchanged",
        detail: "b.txt holds what it held before the call (the write never happened)",
      },
    });
  });

  it("names the reason of a file changed since the call", () => {
    const decided = decideWrite(edit, file(OTHER));
    expect(decided).toEqual({
      kind: "said",
      undo: {
        result: "refused",
        detail:
          "b.txt changed since the call (it no longer holds what the call wrote: someone else edited it); it was left as it is",
      },
    });
  });
});

/** A workspace of hashes: a file's "bytes" are its hash's first letter, three times. */
class FakeWorkspace implements WorkspaceRestorer {
  readonly files = new Map<string, string>();
  readonly changes: string[] = [];
  current(file: string): Promise<CurrentFile> {
    const sha256 = this.files.get(file);
    return Promise.resolve(sha256 === undefined ? { kind: "absent" } : { kind: "file", sha256 });
  }
  restore(file: string, bytes: Uint8Array, expected: string): Promise<void> {
    expect(this.files.get(file)).toBe(expected);
    this.files.set(file, String.fromCharCode(bytes[0] ?? 0).repeat(64));
    this.changes.push(`restore ${file}`);
    return Promise.resolve();
  }
  remove(file: string, expected: string): Promise<void> {
    expect(this.files.get(file)).toBe(expected);
    this.files.delete(file);
    this.changes.push(`remove ${file}`);
    return Promise.resolve();
  }
  /** A folder is empty when no file lies below it; `kept` holds what is in a folder otherwise. */
  readonly kept = new Set<string>();
  removeEmptyFolder(folder: string): Promise<boolean> {
    const holds =
      this.kept.has(folder) || [...this.files.keys()].some((file) => file.startsWith(`${folder}/`));
    if (!holds) this.changes.push(`rmdir ${folder}`);
    return Promise.resolve(!holds);
  }
}

describe("undoCalls", () => {
  it("takes back two edits of one file newest first, names a command as beyond undo, and records each", async () => {
    const workspace = new FakeWorkspace();
    workspace.files.set("a.txt", H("z"));
    workspace.files.set("n.txt", AFTER);
    const records: StoredJournalRecord[] = [
      { type: "run_started", prompt: "task" },
      started("e1", "edit_file", "write"),
      before("e1", "a.txt", H("x"), H("y")),
      { type: "file_written", callId: "e1", file: "a.txt", sha256: H("y") },
      started("w1", "write_file", "write"),
      before("w1", "n.txt", undefined, AFTER),
      { type: "file_written", callId: "w1", file: "n.txt", sha256: AFTER },
      {
        type: "call_prepared",
        callId: "s1",
        tool: "shell",
        canonicalArguments: '{"command":"rm -rf build\\n  && make"}',
      },
      started("s1", "shell", "execute"),
      started("e2", "edit_file", "write"),
      before("e2", "a.txt", H("y"), H("z")),
      { type: "file_written", callId: "e2", file: "a.txt", sha256: H("z") },
    ];
    const recorded: UndoDecision[] = [];
    const audited: string[] = [];
    const report = await undoCalls(planUndo(records, 10), {
      files: workspace,
      image: (_image, sha256) => new Uint8Array([sha256.charCodeAt(0)]),
      record: (decision) => {
        recorded.push(decision);
        return Promise.resolve();
      },
      audit: (decision) => {
        audited.push(decision.callId);
      },
    });
    expect(report.decisions.map(undoLine)).toEqual([
      "undid edit_file (e2): a.txt holds again what it held before the call",
      "cannot undo shell `rm -rf build && make` (s1): it ran a command, and a command's effects cannot be undone; it is left as it ran",
      "undid write_file (w1): removed n.txt, which the call created",
      "undid edit_file (e1): a.txt holds again what it held before the call",
    ]);
    expect(workspace.changes).toEqual(["restore a.txt", "remove n.txt", "restore a.txt"]);
    expect(workspace.files.get("a.txt")).toBe(H("x"));
    expect(recorded.map((decision) => [decision.callId, decision.result])).toEqual([
      ["e2", "restored"],
      ["s1", "not_undoable"],
      ["w1", "restored"],
      ["e1", "restored"],
    ]);
    expect(audited).toEqual(["e2", "s1", "w1", "e1"]);
  });

  it("removes the folders a write made for the file it created, innermost first, while empty", async () => {
    const workspace = new FakeWorkspace();
    workspace.files.set("new/deep/n.txt", AFTER);
    const made = (folders: readonly string[]): StoredJournalRecord[] => [
      { type: "run_started", prompt: "task" },
      started("w1", "write_file", "write"),
      { ...before("w1", "new/deep/n.txt", undefined, AFTER), madeFolders: folders },
      { type: "file_written", callId: "w1", file: "new/deep/n.txt", sha256: AFTER },
    ];
    const undo = (records: StoredJournalRecord[]) =>
      undoCalls(planUndo(records, 1), {
        files: workspace,
        image: () => undefined,
        record: () => Promise.resolve(),
      });
    const report = await undo(made(["new", "new/deep"]));
    expect(report.decisions[0]?.detail).toBe(
      "removed new/deep/n.txt, which the call created, and the folders it made for it, left empty (new/deep, new)",
    );
    expect(workspace.changes).toEqual(["remove new/deep/n.txt", "rmdir new/deep", "rmdir new"]);
    // A folder holding something now stops the rest: nothing above it is removed either.
    workspace.changes.length = 0;
    workspace.files.set("new/deep/n.txt", AFTER);
    workspace.kept.add("new/deep");
    const kept = await undo(made(["new", "new/deep"]));
    expect(kept.decisions[0]?.detail).toBe("removed new/deep/n.txt, which the call created");
    expect(workspace.changes).toEqual(["remove new/deep/n.txt"]);
  });

  it("refuses a call whose file changed since, and leaves the file alone", async () => {
    const workspace = new FakeWorkspace();
    workspace.files.set("b.txt", OTHER);
    const report = await undoCalls(planUndo(RUN, 1), {
      files: workspace,
      image: () => new Uint8Array([1]),
      record: () => Promise.resolve(),
    });
    expect(report.decisions.map((decision) => decision.result)).toEqual(["refused"]);
    expect(workspace.changes).toEqual([]);
    expect(workspace.files.get("b.txt")).toBe(OTHER);
  });

  it("refuses to restore from a kept image that is missing or damaged", async () => {
    const workspace = new FakeWorkspace();
    workspace.files.set("b.txt", AFTER);
    const report = await undoCalls(planUndo(RUN, 1), {
      files: workspace,
      image: () => undefined,
      record: () => Promise.resolve(),
    });
    expect(report.decisions[0]?.result).toBe("refused");
    expect(report.decisions[0]?.detail).toBe(
      "b.txt could not be put back (its kept earlier content is missing or damaged); it was left as it is",
    );
    expect(workspace.changes).toEqual([]);
  });
});
