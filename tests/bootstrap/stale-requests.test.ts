/**
 * `agent approvals` lists, and `agent approve`/`deny` answer, only a request its run still waits
 * on: one whose run has ended, or whose run now waits on another request, could never be used.
 */
import { homedir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileRunJournal, journalPath, runsDirectory } from "../../src/adapters/journal/index.js";
import { openWorkspaceState, stateRootPath } from "../../src/adapters/state/index.js";
import { openApprovalStore } from "../../src/bootstrap/open/approval-state.js";
import { approvalsCommand } from "../../src/cli/commands/approvals.js";
import { approveCommand, denyCommand } from "../../src/cli/commands/approve.js";
import type { JournalRecord } from "../../src/core/journal/journal-records.js";
import { runCapturedSubcommand } from "../support/captured-subcommand.js";
import { makeTempWorkspace, type TempWorkspace } from "../support/workspace.js";

const RUN = "20261201T150000Z-0a0b0c0d";
const OLD = "req_00000000000000a1";
const NEW = "req_00000000000000b2";

let temp: TempWorkspace;
let state: string;
beforeEach(async () => {
  temp = await makeTempWorkspace();
  state = join(temp.root, "state");
});
afterEach(() => temp.cleanup());

function saveRequest(id: string, callId: string): void {
  const store = openApprovalStore(temp.workspace, state, {}, "linux");
  store.saveRequest(
    {
      id,
      actionDigest: "a".repeat(64),
      summary: `run_command ["npm","test"] (${id})`,
      risks: [],
      expiresAt: "2999-01-01T00:00:00.000Z",
    },
    { runId: RUN, callId, tool: "run_command" },
  );
  store.close();
}

async function journal(...records: JournalRecord[]): Promise<void> {
  const root = stateRootPath({ flag: state, env: {}, platform: "linux", homeDirectory: homedir() });
  const runs = runsDirectory(openWorkspaceState(root, temp.workspace).directory);
  const file = FileRunJournal.open(journalPath(runs, RUN), {
    runId: RUN,
    chapter: 4,
    profile: "P04",
    model: "test-model",
    workspace: temp.workspace,
    policy: "test",
    sandbox: "required",
    network: false,
  });
  await file.append({ type: "run_started", prompt: "run the tests" });
  for (const record of records) await file.append(record);
  file.close();
}

const waitingOn = (id: string, callId: string): JournalRecord => ({
  type: "run_waiting",
  callId,
  request: { id },
});

function agent(handler: typeof approveCommand, args: readonly string[]) {
  return runCapturedSubcommand(
    handler,
    [...args, "--workspace", temp.workspace, "--state-dir", state],
    { home: temp.root, cwd: temp.workspace },
  );
}

describe("a request nothing can use any more", () => {
  it("is not listed once its run has ended, and approving it is refused", async () => {
    saveRequest(OLD, "call_a");
    await journal(
      waitingOn(OLD, "call_a"),
      { type: "run_resumed" },
      {
        type: "run_finished",
        finalText: "Done.",
      },
    );

    expect(await agent(approvalsCommand, [])).toEqual({
      code: 0,
      out: `no pending requests in ${temp.workspace}\n`,
      err: "",
    });
    const approved = await agent(approveCommand, [OLD]);
    expect(approved.code).not.toBe(0);
    expect(approved.out).toBe("");
    expect(approved.err).toBe(
      `agent: request ${OLD} can no longer be used: its run ${RUN} has ended (completed); nothing was approved or denied\n`,
    );
    expect((await agent(denyCommand, [OLD])).code).not.toBe(0);
  });

  it("is not listed once its run waits on a newer request, and approving it is refused", async () => {
    saveRequest(OLD, "call_a");
    saveRequest(NEW, "call_b");
    await journal(waitingOn(OLD, "call_a"), { type: "run_resumed" }, waitingOn(NEW, "call_b"));

    const listed = await agent(approvalsCommand, ["--json"]);
    expect(
      (JSON.parse(listed.out) as { request: { id: string } }[]).map((one) => one.request.id),
    ).toEqual([NEW]);
    const approved = await agent(approveCommand, [OLD]);
    expect(approved.code).not.toBe(0);
    expect(approved.err).toBe(
      `agent: request ${OLD} can no longer be used: its run ${RUN} now waits on request ${NEW} instead; nothing was approved or denied\n`,
    );
    expect((await agent(approveCommand, [NEW])).code).toBe(0);
  });

  it("is listed and answered while its run waits on it", async () => {
    saveRequest(OLD, "call_a");
    await journal(waitingOn(OLD, "call_a"));

    expect((await agent(approvalsCommand, [])).out).toContain(`${OLD} · asked`);
    const approved = await agent(approveCommand, [OLD]);
    expect(approved.code).toBe(0);
    expect(approved.out).toMatch(new RegExp(`^approved ${OLD}: one run of exactly that action`));
  });
});

describe("a request whose run's journal cannot say", () => {
  it("reads but does not replay: the request is listed and answered as usable", async () => {
    saveRequest(OLD, "call_a");
    // Every line reads; replaying them fails at the second run_started.
    await journal(waitingOn(OLD, "call_a"), { type: "run_started", prompt: "again" });

    expect((await agent(approvalsCommand, [])).out).toContain(`${OLD} · asked`);
    const approved = await agent(approveCommand, [OLD]);
    expect(approved.err).toBe("");
    expect(approved.code).toBe(0);
    expect(approved.out).toMatch(new RegExp(`^approved ${OLD}: one run of exactly that action`));
  });
});

describe("the live run's own answer at its terminal", () => {
  it("is not checked against its journal: the run asking is by definition live", async () => {
    // The journal on disk would call the request stale (the run has ended): a live run's store
    // never asks it about the run's own requests.
    await journal({ type: "run_finished", finalText: "Done." });
    const live = openApprovalStore(temp.workspace, state, {}, "linux", RUN);
    const other = openApprovalStore(temp.workspace, state, {}, "linux");
    try {
      live.saveRequest(
        {
          id: OLD,
          actionDigest: "a".repeat(64),
          summary: 'run_command ["npm","test"]',
          risks: [],
          expiresAt: "2999-01-01T00:00:00.000Z",
        },
        { runId: RUN, callId: "call_a", tool: "run_command" },
      );
      expect(other.pendingRequests()).toEqual([]);
      expect(live.approve(OLD, 60_000, "terminal")).toMatchObject({
        requestId: OLD,
        answer: "approved",
        runId: RUN,
      });
    } finally {
      live.close();
      other.close();
    }
  });
});
