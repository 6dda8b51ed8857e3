/**
 * Seed 003 (permissions and security, Steps 1–3), its acceptance as written: the Step 3 lines
 * verbatim, and its execute-tool snippet (Step 2) verbatim inside `executeTool`, run for the
 * wait-and-resume acceptance. Only the imports and the fixtures the seed leaves to the reader
 * (the tools, their inputs, the context, the store) are ours.
 */
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApprovalStore } from "../../src/adapters/state/approval-store.js";
import {
  authorize,
  type PolicyContext,
  type RegisteredTool,
} from "../../src/core/grants/policy.js";
import type { CommandResult } from "../../src/core/ports/command-runner.js";
import type { ToolContext } from "../../src/core/tools/tool-definition.js";
import { registeredTool } from "../../src/core/tools/registered-tool.js";
import { createRunCommandTool } from "../../src/features/run-command-tool.js";
import { externalTool } from "../support/seed-tools.js";
import { executeInSandbox, observation } from "../support/seed-runtime.js";
import { commandChecksThatPass } from "../support/permission-fakes.js";

const context: PolicyContext = {
  cwd: "/workspace",
  realWorkspaceRoot: "/workspace",
  allowedArgv: [["npm", "test"]],
  network: "disabled",
};
const policyContext = context;
const allowedTest = { command: "npm", args: ["test"] };
const changedArgs = { command: "npm", args: ["test", "--watch"] };
const externalInput = { url: "https://example.com" };

/** The process starts the run_command tool asked for: none until the sandbox runs it. */
let started: string[][] = [];
const runCommandTool: RegisteredTool = registeredTool(
  createRunCommandTool({
    runner: {
      run: (argv): Promise<CommandResult> => {
        started.push([...argv]);
        return Promise.resolve({
          output: "1 passed\n",
          exitCode: 0,
          timedOut: false,
          truncated: false,
        });
      },
    },
    workspace: "/workspace",
    // The seed's own steps decide and sandbox it here; the tool's last checks pass.
    ...commandChecksThatPass(),
  }),
);

let stateDirectory: string;
let store: ApprovalStore;
const state = { runId: "run-seed-003" };
const toolContext: Omit<ToolContext, "callId"> = { workspace: "/workspace" };

beforeEach(async () => {
  started = [];
  stateDirectory = await mkdtemp(join(await realpath(tmpdir()), "seed-003-"));
  store = new ApprovalStore(stateDirectory);
});

afterEach(async () => {
  await rm(stateDirectory, { recursive: true, force: true });
});

/**
 * Step 2's snippet, as the seed writes it, in the function it stands in. The seed's store is
 * asynchronous and ours synchronous: awaiting it is harmless, and the lines stay the seed's.
 */
/* eslint-disable @typescript-eslint/await-thenable, @typescript-eslint/no-confusing-void-expression */
async function executeTool(tool: RegisteredTool, rawInput: unknown) {
  const prepared = tool.prepare(rawInput);
  const decision = authorize(tool, prepared.input, policyContext);
  if (decision.type === "deny") return observation("policy_denied", decision.reason);
  if (decision.type === "ask") {
    const grant = await store.consumeApprovalGrant(state.runId, decision.request.actionDigest);
    if (!grant) {
      await store.saveApprovalRequest(state.runId, decision.request);
      return {
        type: "waiting" as const,
        requestId: decision.request.id,
        reason: "approval_required" as const,
      };
    }
  }
  return executeInSandbox(() => prepared.execute(toolContext), { network: "disabled" });
}
/* eslint-enable @typescript-eslint/await-thenable, @typescript-eslint/no-confusing-void-expression */

describe("seed 003, Step 3: the policy, on fixed inputs", () => {
  it("an allowed test command asks; changed arguments and an external tool are denied", () => {
    expect(authorize(runCommandTool, allowedTest, context).type).toBe("ask");
    expect(authorize(runCommandTool, changedArgs, context)).toMatchObject({
      type: "deny",
      reason: "argv_not_allowed",
    });
    expect(authorize(externalTool, externalInput, context).type).toBe("deny");
  });
});

describe("seed 003, Step 3: one whole wait and resume", () => {
  it("waits with nothing started; a one-time grant for the digest lets the second authorization into the sandbox", async () => {
    // First execution: an ApprovalRequest, the run waiting, no process started.
    const first = await executeTool(runCommandTool, allowedTest);
    expect(first).toMatchObject({ type: "waiting", reason: "approval_required" });
    expect(started).toEqual([]);
    const requestId = (first as { requestId: string }).requestId;
    expect(store.pendingRequests().map((stored) => stored.request.id)).toEqual([requestId]);

    // A one-time approval bound to the request's actionDigest, then the resume.
    store.approve(requestId, 60_000, "test");
    const second = await executeTool(runCommandTool, allowedTest);
    expect(second).toEqual({ content: "1 passed\n", isError: false });
    expect(started).toEqual([["npm", "test"]]);

    // Used once: the same action asks again.
    const third = await executeTool(runCommandTool, allowedTest);
    expect(third).toMatchObject({ type: "waiting", reason: "approval_required" });
    expect((third as { requestId: string }).requestId).not.toBe(requestId);
    expect(started).toEqual([["npm", "test"]]);
  });

  it("changed arguments after the approval need a new request; the old grant does not apply", async () => {
    const first = await executeTool(runCommandTool, allowedTest);
    store.approve((first as { requestId: string }).requestId, 60_000, "test");
    expect(
      await executeTool(runCommandTool, { command: "npm", args: ["test", "--watch"] }),
    ).toEqual({
      type: "observation",
      callId: "",
      output: "Error [policy_denied]: argv_not_allowed",
    });
    expect(started).toEqual([]);
  });
});
