import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HarnessFileError } from "../../../src/adapters/filesystem/index.js";
import { ApprovalStore, ApprovalStoreError } from "../../../src/adapters/state/index.js";
import type { ApprovalRequest } from "../../../src/core/policy/approval-request.js";

const DIGEST = "a".repeat(64);
const OTHER = "b".repeat(64);
const T0 = Date.parse("2026-01-01T00:00:00.000Z");
const made: string[] = [];

function stateDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "approvals-")));
  made.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function request(
  id: string,
  digest = DIGEST,
  expiresAt = "2026-01-02T00:00:00.000Z",
): ApprovalRequest {
  return {
    id,
    actionDigest: digest,
    summary: 'run_command ["npm","test"]',
    risks: ["r"],
    expiresAt,
  };
}

const ctx = { runId: "run-1", callId: "call_1", tool: "run_command" };

describe("ApprovalStore: a run that waits again", () => {
  it("its newer request for the same call replaces the older one: only the newer is listed and answerable", () => {
    let now = T0;
    const store = new ApprovalStore(stateDir(), { now: () => now });
    const otherCall = { ...ctx, callId: "call_2" };
    const otherRun = { ...ctx, runId: "run-2" };
    store.saveRequest(request("req_0000000000000001"), ctx);
    store.saveRequest(request("req_0000000000000002", OTHER), otherRun);
    now += 1000;
    store.saveRequest(request("req_0000000000000003", OTHER), otherCall);
    now += 1000;
    // The resume of run-1 waited again on call_1 (its arguments changed): a new request.
    store.saveRequest(request("req_0000000000000004", OTHER), ctx);

    expect(store.pendingRequests().map((stored) => stored.request.id)).toEqual([
      "req_0000000000000002",
      "req_0000000000000003",
      "req_0000000000000004",
    ]);
    expect(() => store.approve("req_0000000000000001", 60_000, "cli")).toThrow(
      new ApprovalStoreError(
        "request req_0000000000000001 was replaced by request req_0000000000000004 (run run-1 asked again); answer that one",
      ),
    );
    expect(() => store.deny("req_0000000000000001", "cli")).toThrow(ApprovalStoreError);
    // Nothing was granted for the old action; the new request is answered as usual.
    expect(store.consumeApprovalGrant("run-1", DIGEST)).toBeUndefined();
    store.approve("req_0000000000000004", 60_000, "cli");
    expect(store.pendingRequests().map((stored) => stored.request.id)).toEqual([
      "req_0000000000000002",
      "req_0000000000000003",
    ]);
    expect(store.consumeApprovalGrant("run-1", OTHER)?.requestId).toBe("req_0000000000000004");
  });

  it("names the request that still waits for this call, until it is answered or expires", () => {
    let now = T0;
    const store = new ApprovalStore(stateDir(), { now: () => now });
    const id = "req_0000000000000001";
    store.saveRequest(request(id, DIGEST, "2026-01-01T00:00:10.000Z"), ctx);
    expect(store.waitingRequest("run-1", "call_1")?.id).toBe(id);
    expect(store.waitingRequest("run-1", "call_2")).toBeUndefined();
    expect(store.waitingRequest("run-2", "call_1")).toBeUndefined();
    now += 10_000;
    expect(store.waitingRequest("run-1", "call_1")).toBeUndefined();
    now = T0;
    store.deny(id, "cli");
    expect(store.waitingRequest("run-1", "call_1")).toBeUndefined();
  });

  it("an answered request stays replaced: a later wait of the same call lists only its own request", () => {
    let now = T0;
    const store = new ApprovalStore(stateDir(), { now: () => now });
    store.saveRequest(request("req_0000000000000001"), ctx);
    store.approve("req_0000000000000001", 1000, "cli");
    now += 5000; // The grant expired unused; the resume waits again.
    store.saveRequest(request("req_0000000000000002"), ctx);
    expect(store.pendingRequests().map((stored) => stored.request.id)).toEqual([
      "req_0000000000000002",
    ]);
  });
});

describe("ApprovalStore", () => {
  it("a request waits until answered; approve gives a one-time grant for that digest only", () => {
    let now = T0;
    const store = new ApprovalStore(stateDir(), { now: () => now });
    store.saveRequest(request("req_0000000000000001"), ctx);
    expect(store.pendingRequests().map((stored) => stored.request.id)).toEqual([
      "req_0000000000000001",
    ]);
    expect(store.consumeApprovalGrant("run-2", DIGEST)).toBeUndefined();

    const token = store.approve("req_0000000000000001", 15 * 60_000, "cli");
    expect(token).toMatchObject({ answer: "approved", expiresAt: "2026-01-01T00:15:00.000Z" });
    expect(store.pendingRequests()).toEqual([]);
    expect(store.consumeApprovalGrant("run-2", OTHER)).toBeUndefined();
    now += 60_000;
    // Bound to the run that asked: another run of the workspace, same action, does not get it.
    expect(store.consumeApprovalGrant("run-2", DIGEST)).toBeUndefined();
    expect(store.consumeApprovalGrant("run-1", DIGEST)).toMatchObject({
      requestId: "req_0000000000000001",
      runId: "run-1",
    });
    // Used once: never again.
    expect(store.consumeApprovalGrant("run-1", DIGEST)).toBeUndefined();
    expect(store.consumeApprovalGrant("run-3", DIGEST)).toBeUndefined();
  });

  it("an expired grant is refused", () => {
    let now = T0;
    const store = new ApprovalStore(stateDir(), { now: () => now });
    store.saveRequest(request("req_0000000000000002"), ctx);
    store.approve("req_0000000000000002", 1000, "cli");
    now += 1000;
    expect(store.consumeApprovalGrant("run-1", DIGEST)).toBeUndefined();
  });

  it("a request is answered once; an unknown, malformed or expired one is refused", () => {
    let now = T0;
    const store = new ApprovalStore(stateDir(), { now: () => now });
    store.saveRequest(request("req_0000000000000003"), ctx);
    store.deny("req_0000000000000003", "cli");
    expect(() => store.approve("req_0000000000000003", 1000, "cli")).toThrow(
      new ApprovalStoreError("request req_0000000000000003 was already answered"),
    );
    expect(() => store.approve("req_ffffffffffffffff", 1000, "cli")).toThrow(
      new ApprovalStoreError("no such request: req_ffffffffffffffff"),
    );
    expect(() => store.approve("../../etc/passwd", 1000, "cli")).toThrow(
      new ApprovalStoreError('no such request: "../../etc/passwd"'),
    );
    store.saveRequest(request("req_0000000000000004", OTHER, "2026-01-01T00:00:01.000Z"), ctx);
    now += 1000;
    expect(() => store.approve("req_0000000000000004", 1000, "cli")).toThrow(
      /request req_0000000000000004 expired at 2026-01-01T00:00:01.000Z/,
    );
    expect(store.pendingRequests()).toEqual([]);
  });

  it("a denial is consumed once by the call it answers", () => {
    const store = new ApprovalStore(stateDir(), { now: () => T0 });
    store.saveRequest(request("req_0000000000000005"), ctx);
    store.deny("req_0000000000000005", "cli");
    expect(store.consumeApprovalGrant("run-1", DIGEST)).toBeUndefined();
    expect(store.consumeDenial("run-2", DIGEST)).toBeUndefined();
    expect(store.consumeDenial("run-1", DIGEST)).toMatchObject({ answer: "denied" });
    expect(store.consumeDenial("run-1", DIGEST)).toBeUndefined();
  });

  it("a grant whose content names another digest grants nothing; links are not followed", () => {
    const dir = stateDir();
    const store = new ApprovalStore(dir, { now: () => T0 });
    store.saveRequest(request("req_0000000000000006", OTHER), ctx);
    store.approve("req_0000000000000006", 60_000, "cli");
    const grants = join(store.directory, "grants");
    const [name] = readdirSync(grants);
    // A grant for OTHER renamed to look like one for DIGEST.
    writeFileSync(
      join(grants, `${DIGEST}.req_0000000000000007.json`),
      readFileSync(join(grants, name ?? "")),
    );
    expect(store.consumeApprovalGrant("run-1", DIGEST)).toBeUndefined();
    symlinkSync(join(grants, name ?? ""), join(grants, `${DIGEST}.req_0000000000000008.json`));
    expect(store.consumeApprovalGrant("run-1", DIGEST)).toBeUndefined();
    expect(store.consumeApprovalGrant("run-1", OTHER)).toMatchObject({ actionDigest: OTHER });
  });

  it("writes every answer and use to its own log", () => {
    const store = new ApprovalStore(stateDir(), { now: () => T0 });
    store.saveRequest(request("req_0000000000000009"), ctx);
    store.approve("req_0000000000000009", 60_000, "cli");
    store.consumeApprovalGrant("run-1", DIGEST);
    const events = readFileSync(join(store.directory, "log.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { event: string }).event);
    expect(events).toEqual(["requested", "approved", "grant_consumed"]);
  });
});

describe("ApprovalStore: its log", () => {
  const logLines = (path: string): { event: string; requestId: string }[] =>
    readFileSync(path, "utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { event: string; requestId: string });

  it("is opened once and kept open: a line goes to the file opened, not to whatever has the name now", () => {
    const dir = stateDir();
    const store = new ApprovalStore(dir, { now: () => T0 });
    const log = join(store.directory, "log.jsonl");
    store.saveRequest(request("req_0000000000000001"), ctx);
    renameSync(log, `${log}.moved`);
    writeFileSync(log, "");
    store.approve("req_0000000000000001", 60_000, "cli");
    store.close();
    expect(readFileSync(log, "utf8")).toBe("");
    expect(logLines(`${log}.moved`).map((line) => [line.event, line.requestId])).toEqual([
      ["requested", "req_0000000000000001"],
      ["approved", "req_0000000000000001"],
    ]);
  });

  it.each(["link", "fifo"] as const)(
    "planted as a %s stops every change before it happens",
    (kind) => {
      const dir = stateDir();
      const setUp = new ApprovalStore(dir, { now: () => T0 });
      setUp.saveRequest(request("req_0000000000000001"), ctx);
      setUp.saveRequest(request("req_0000000000000002", OTHER), { ...ctx, callId: "call_2" });
      setUp.approve("req_0000000000000002", 60_000, "cli");
      setUp.close();
      const approvals = setUp.directory;
      const log = join(approvals, "log.jsonl");
      const before = JSON.stringify(
        ["requests", "answers", "grants", "consumed"].map((sub) =>
          readdirSync(join(approvals, sub)),
        ),
      );
      rmSync(log);
      if (kind === "link") symlinkSync(join(dir, "elsewhere.jsonl"), log);
      else expect(spawnSync("mkfifo", [log]).status).toBe(0);

      const store = new ApprovalStore(dir, { now: () => T0 });
      expect(() => {
        store.saveRequest(request("req_0000000000000003"), ctx);
      }).toThrow(HarnessFileError);
      expect(() => store.approve("req_0000000000000001", 60_000, "cli")).toThrow(HarnessFileError);
      expect(() => store.consumeApprovalGrant("run-1", OTHER)).toThrow(HarnessFileError);
      const after = JSON.stringify(
        ["requests", "answers", "grants", "consumed"].map((sub) =>
          readdirSync(join(approvals, sub)),
        ),
      );
      expect(after).toBe(before);
      expect(existsSync(join(dir, "elsewhere.jsonl"))).toBe(false);
    },
  );
});
