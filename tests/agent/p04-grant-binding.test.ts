/**
 * Issue 28 item 2 through the composed P04 tool path (bootstrap's buildAgent, the real grant
 * store, the real npm script reader): a grant is the asking run's alone, and what runs is checked
 * against what was approved just before the spawn.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { p04TestAgent, recordingRun } from "../support/p04-test-agent.js";
import { ApprovalStore } from "../../src/adapters/state/index.js";
import { RunWaitingError } from "../../src/core/common/agent-errors.js";
import type { ApprovalProvider } from "../../src/core/policy/approval.js";
import { PermissionDecision } from "../../src/core/policy/permission-decision.js";
import { ScriptedModelClient, textReply, toolCallReply } from "../support/scripted-model.js";
import { makeTempWorkspace, type TempWorkspace } from "../support/temp-workspace.js";
import { toolMessages } from "../support/tool-messages.js";

const npmTest = (id: string) =>
  toolCallReply([{ id, name: "run_command", arguments: { command: "npm", args: ["test"] } }]);

let temp: TempWorkspace;
let store: ApprovalStore;
let started: string[][];

beforeEach(async () => {
  temp = await makeTempWorkspace();
  const state = join(temp.base, "state");
  mkdirSync(state, { mode: 0o700 });
  store = new ApprovalStore(state);
  started = [];
  writePackage("vitest run");
});
afterEach(async () => {
  store.close();
  await temp.cleanup();
});

function writePackage(test: string): void {
  writeFileSync(join(temp.ws, "package.json"), JSON.stringify({ scripts: { test } }));
}

function agent(runId: string, replies: ScriptedModelClient, person?: ApprovalProvider) {
  return p04TestAgent({
    workspace: temp.ws,
    store,
    runId,
    replies,
    allowedArgv: [["npm", "test"]],
    run: recordingRun(started),
    ...(person === undefined ? {} : { person }),
  });
}

async function waitingRequest(runId: string): Promise<string> {
  const error = await agent(runId, new ScriptedModelClient([npmTest("call_1")]))
    .run("run the tests")
    .catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(RunWaitingError);
  return (error as RunWaitingError).request.id;
}

describe("P04 grants belong to the run that asked", () => {
  it("another run of the same workspace and action does not consume it; the asking run does", async () => {
    const id = await waitingRequest("run-a");
    store.approve(id, 60_000, "test");

    // Run B asks for exactly the same action: it waits for its own approval, nothing runs.
    await expect(waitingRequest("run-b")).resolves.not.toBe(id);
    expect(started).toEqual([]);

    const resumed = await agent(
      "run-a",
      new ScriptedModelClient([npmTest("call_1"), textReply("done")]),
    ).run("run the tests");
    expect(toolMessages(resumed.history)).toEqual([{ id: "call_1", content: "ok" }]);
    expect(started).toEqual([["npm", "test"]]);
  });
});

describe("P04 checks what runs against what was approved, just before it runs", () => {
  it("a script changed while the person answered: nothing runs, a stable code; the next call asks again", async () => {
    const questions: string[] = [];
    const asked: string[] = [];
    const person: ApprovalProvider = {
      decide: (request) => {
        // What the person is asked: what the command runs is in the request's script rows.
        questions.push((request.proposedDecision?.approvalRequest?.scriptRows ?? []).join(" · "));
        asked.push(request.proposedDecision?.approvalRequest?.id ?? "");
        // Between the question and the `y`, the script becomes something else.
        if (questions.length === 1) writePackage("node evil.js");
        return Promise.resolve(PermissionDecision.allow("User approved", "terminal-approval"));
      },
    };
    const result = await agent(
      "run-t",
      new ScriptedModelClient([npmTest("call_1"), npmTest("call_2"), textReply("done")]),
      person,
    ).run("run the tests");
    const [first, second] = toolMessages(result.history);
    expect(first).toEqual({
      id: "call_1",
      // The same code and words as when a resumed run finds the change (below); the outcome note
      // says the tool refused it (executed: no) rather than who denied it.
      content: `Error [action_changed_since_approval]: request ${asked[0] ?? ""} approved this call, but the action it is now differs from the one approved (a script or file it runs, npm's configuration, where it runs, or where a path lands changed since), so nothing was run; call the tool again to ask about the action as it is now (executed: no)`,
    });
    // Asked again, about the script as it is now; only that approval ran it.
    expect(questions[0]).toContain('runs the script "vitest run"');
    expect(questions[1]).toContain('runs the script "node evil.js"');
    expect(second).toEqual({ id: "call_2", content: "ok" });
    expect(started).toEqual([["npm", "test"]]);
  });

  it("a script changed after `agent approve`, before the resume: refused as changed, the grant unused, nothing runs", async () => {
    const id = await waitingRequest("run-a");
    store.approve(id, 60_000, "test");
    writePackage("node evil.js");
    const resumed = await agent(
      "run-a",
      new ScriptedModelClient([npmTest("call_1"), textReply("done")]),
    ).run("run the tests");
    expect(toolMessages(resumed.history)).toEqual([
      {
        id: "call_1",
        content: `Error [action_changed_since_approval]: request ${id} approved this call, but the action it is now differs from the one approved (a script or file it runs, npm's configuration, where it runs, or where a path lands changed since), so nothing was run; call the tool again to ask about the action as it is now (executed: no; source: approval-grant; scope: this call (request ${id}))`,
      },
    ]);
    expect(started).toEqual([]);
    expect(store.grantForCall("run-a", "call_1")).toMatchObject({ requestId: id });
  });
});
