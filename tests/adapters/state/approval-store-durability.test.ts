/**
 * The approval store's records survive a power loss before anyone acts on them: each file is
 * fsync'd before it is renamed into place, each directory after a name in it was created, renamed
 * or removed; and an fsync that fails fails the operation closed (nothing saved, no grant usable,
 * none used twice). The store's file operations are a recorder over node:fs here.
 */
import { mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  ApprovalStore,
  nodeStateFileOps,
  type StateFileOps,
} from "../../../src/adapters/state/index.js";
import type { ApprovalRequest } from "../../../src/core/policy/approval-request.js";

const DIGEST = "c".repeat(64);
const ID = "req_00000000000000aa";
const T0 = Date.parse("2026-01-01T00:00:00.000Z");
const CONTEXT = { runId: "run-1", callId: "call_1", tool: "run_command" };
const made: string[] = [];

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const REQUEST: ApprovalRequest = {
  id: ID,
  actionDigest: DIGEST,
  summary: 'run_command ["npm","test"]',
  risks: ["r"],
  expiresAt: "2026-01-02T00:00:00.000Z",
};

/**
 * node:fs, recording each write, fsync, rename and unlink by name (relative to approvals/, a
 * directory with a trailing slash, temporary names as `.tmp-X`), and failing with EIO the
 * `failing.nth` time (from 1) that `failing.event` would happen.
 */
function recordingFiles(failing?: { readonly event: string; readonly nth: number }): {
  files: StateFileOps;
  events: string[];
  root: { approvals: string };
} {
  const events: string[] = [];
  const root = { approvals: "" };
  const names = new Map<number, string>();
  const name = (path: string): string => {
    const rel = relative(root.approvals, path).replace(/\.tmp-[0-9a-f]{16}/, ".tmp-X");
    return readdirSafe(path) ? `${rel}/` : rel;
  };
  let seen = 0;
  const happen = (event: string): void => {
    if (event === failing?.event) {
      seen += 1;
      if (seen === failing.nth) {
        throw Object.assign(new Error(`EIO: i/o error, ${event}`), { code: "EIO" });
      }
    }
    events.push(event);
  };
  const files: StateFileOps = {
    openSync(path, flags, mode) {
      const fd = nodeStateFileOps.openSync(path, flags, mode);
      names.set(fd, name(path));
      return fd;
    },
    writeSync(fd, text) {
      happen(`write ${names.get(fd) ?? "?"}`);
      return nodeStateFileOps.writeSync(fd, text);
    },
    fsyncSync(fd) {
      happen(`fsync ${names.get(fd) ?? "?"}`);
      nodeStateFileOps.fsyncSync(fd);
    },
    closeSync(fd) {
      names.delete(fd);
      nodeStateFileOps.closeSync(fd);
    },
    renameSync(from, to) {
      happen(`rename ${name(from)} -> ${name(to)}`);
      nodeStateFileOps.renameSync(from, to);
    },
    unlinkSync(path) {
      happen(`unlink ${name(path)}`);
      nodeStateFileOps.unlinkSync(path);
    },
  };
  return { files, events, root };
}

function readdirSafe(path: string): boolean {
  try {
    readdirSync(path);
    return true;
  } catch {
    return false;
  }
}

/** A store over a fresh state directory with these file operations. */
function storeWith(recording: ReturnType<typeof recordingFiles>): ApprovalStore {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "approvals-sync-")));
  made.push(dir);
  const store = new ApprovalStore(dir, { now: () => T0, files: recording.files });
  recording.root.approvals = store.directory;
  return store;
}

/** A second store on the same directory, on a healthy disk: what is really there. */
function healthy(store: ApprovalStore): ApprovalStore {
  return new ApprovalStore(join(store.directory, ".."), { now: () => T0 });
}

function names(store: ApprovalStore, sub: string): string[] {
  return readdirSync(join(store.directory, sub)).sort();
}

describe("ApprovalStore: what is fsync'd, and when", () => {
  it("a request: its file is written and fsync'd, then its directory", () => {
    const recording = recordingFiles();
    storeWith(recording).saveRequest(REQUEST, CONTEXT);
    expect(recording.events).toEqual([
      `write requests/${ID}.json`,
      `fsync requests/${ID}.json`,
      "fsync requests/",
    ]);
  });

  it("an approval: the answer is fsync'd, the grant fsync'd before its rename, the directory after it", () => {
    const recording = recordingFiles();
    const store = storeWith(recording);
    store.saveRequest(REQUEST, CONTEXT);
    recording.events.length = 0;
    store.approve(ID, 60_000, "cli");
    expect(recording.events).toEqual([
      `write answers/${ID}.json`,
      `fsync answers/${ID}.json`,
      "fsync answers/",
      "write grants/.tmp-X",
      "fsync grants/.tmp-X",
      "fsync grants/",
      `rename grants/.tmp-X -> grants/${DIGEST}.${ID}.json`,
      "fsync grants/",
    ]);
  });

  it("using a grant: the rename to consumed/ is followed by an fsync of both directories", () => {
    const recording = recordingFiles();
    const store = storeWith(recording);
    store.saveRequest(REQUEST, CONTEXT);
    store.approve(ID, 60_000, "cli");
    recording.events.length = 0;
    expect(store.consumeApprovalGrant("run-1", DIGEST)?.requestId).toBe(ID);
    expect(recording.events).toEqual([
      `rename grants/${DIGEST}.${ID}.json -> consumed/grants-${DIGEST}.${ID}.json`,
      "fsync grants/",
      "fsync consumed/",
    ]);
  });
});

describe("ApprovalStore: a failing fsync fails closed", () => {
  it.each([
    [`fsync requests/${ID}.json`, 1],
    ["fsync requests/", 1],
  ])("saving a request, %s fails: it throws and no request is listed or left", (event, nth) => {
    const store = storeWith(recordingFiles({ event, nth }));
    expect(() => {
      store.saveRequest(REQUEST, CONTEXT);
    }).toThrow(/EIO/);
    expect(healthy(store).pendingRequests()).toEqual([]);
    expect(names(store, "requests")).toEqual([]);
  });

  it.each([
    [`fsync answers/${ID}.json`, 1],
    ["fsync answers/", 1],
    ["fsync grants/.tmp-X", 1],
    // The grant's own directory: once for the temporary file, once after the rename.
    ["fsync grants/", 1],
    ["fsync grants/", 2],
  ])(
    "approving, %s (time %i) fails: it throws, no grant is recorded, and the request can be answered again",
    (event, nth) => {
      const store = storeWith(recordingFiles({ event, nth }));
      store.saveRequest(REQUEST, CONTEXT);
      expect(() => store.approve(ID, 60_000, "cli")).toThrow(/EIO/);
      const disk = healthy(store);
      expect(names(store, "grants")).toEqual([]);
      expect(disk.consumeApprovalGrant("run-1", DIGEST)).toBeUndefined();
      expect(disk.pendingRequests().map((stored) => stored.request.id)).toEqual([ID]);
      expect(disk.approve(ID, 60_000, "cli").answer).toBe("approved");
      expect(disk.consumeApprovalGrant("run-1", DIGEST)?.requestId).toBe(ID);
    },
  );

  it.each([
    ["fsync grants/", 3],
    ["fsync consumed/", 1],
  ])(
    "using a grant, %s (time %i) fails: it throws, and the grant cannot be used afterwards either",
    (event, nth) => {
      const store = storeWith(recordingFiles({ event, nth }));
      store.saveRequest(REQUEST, CONTEXT);
      store.approve(ID, 60_000, "cli");
      expect(() => store.consumeApprovalGrant("run-1", DIGEST)).toThrow(/EIO/);
      expect(healthy(store).consumeApprovalGrant("run-2", DIGEST)).toBeUndefined();
      expect(names(store, "grants")).toEqual([]);
    },
  );
});
