/**
 * Seed 004's four failure paths through the composed P04 loop (bootstrap's buildAgent): what the
 * model reads says whether the action executed, and a denial says its source, its reason (the
 * error's own text) and its scope. The note ends the error's first line, in one form.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApprovalStore } from "../../src/adapters/state/index.js";
import { buildAgent } from "../../src/bootstrap/build-agent.js";
import type { ApprovalProvider } from "../../src/core/policy/approval.js";
import { PermissionDecision } from "../../src/core/policy/permission-decision.js";
import { P04 } from "../../src/core/profiles.js";
import type { ToolOutcome } from "../../src/core/tools/tool-outcome.js";
import { FixedEnvironment, RecordingAuditSink } from "../support/permission-fakes.js";
import { RecordingCommandRunner } from "../support/recording-command-runner.js";
import { ScriptedModelClient, textReply, toolCallReply } from "../support/scripted-model.js";
import { makeTempWorkspace, type TempWorkspace } from "../support/temp-workspace.js";
import { toolMessages } from "../support/tool-messages.js";

const SANDBOX = {
  kind: "isolated",
  network: "disabled",
  label: "sandbox: bwrap (network off)",
} as const;

let temp: TempWorkspace;
let store: ApprovalStore;
let started: string[][];

beforeEach(async () => {
  temp = await makeTempWorkspace();
  const state = join(temp.base, "state");
  mkdirSync(state, { mode: 0o700 });
  store = new ApprovalStore(state);
  started = [];
  writeFileSync(join(temp.ws, "package.json"), JSON.stringify({ scripts: { test: "x" } }));
  writeFileSync(join(temp.base, "secret.txt"), "outside\n");
});
afterEach(async () => {
  store.close();
  await temp.cleanup();
});

/** The person approves every command except the call named `call_no`, which they deny. */
const person: ApprovalProvider = {
  decide: (request) =>
    Promise.resolve(
      request.call.callId === "call_no"
        ? PermissionDecision.deny("User denied this tool call", "terminal-approval")
        : PermissionDecision.allow("User approved", "terminal-approval"),
    ),
};

async function told(
  name: string,
  args: unknown,
  id = "call_1",
): Promise<{ content: string; outcome: ToolOutcome | undefined }> {
  const model = new ScriptedModelClient([
    toolCallReply([{ id, name, arguments: args }]),
    textReply("done"),
  ]);
  const result = await buildAgent(P04, {
    model,
    workspace: temp.ws,
    commandRunner: new RecordingCommandRunner(),
    auditSink: new RecordingAuditSink(),
    executionEnvironment: new FixedEnvironment(() => SANDBOX),
    approvalProvider: person,
    grants: {
      argvRunner: {
        run: (argv) => {
          started.push([...argv]);
          return Promise.resolve({
            exitCode: 2,
            output: "1 failed",
            truncated: false,
            timedOut: false,
          });
        },
      },
      allowedArgv: [["npm", "test"]],
      grants: store,
      runId: "run-1",
      network: false,
      grantTtlMs: 60_000,
    },
  }).run("go");
  return { content: toolMessages(result.history)[0]?.content ?? "", outcome: result.outcomes[0] };
}

describe("what the model reads on each failure path (P04)", () => {
  it.each([
    [
      "unknown tool",
      "delete_everything",
      {},
      "call_1",
      "Error [unknown_tool]: Unknown tool: delete_everything (available tools: run_command, read_file, write_file, edit_file, glob, fetch_url) (executed: no)",
    ],
    [
      "invalid arguments",
      "run_command",
      { command: 5 },
      "call_1",
      /^Error \[invalid_arguments\]: .* \(executed: no\)$/u,
    ],
    [
      "denied by the policy",
      "run_command",
      { command: "npm", args: ["test", "--", "--evil"] },
      "call_1",
      () =>
        `Error [policy_denied]: argv_not_allowed: ["npm","test","--","--evil"] is not exactly on the allowlist (see agent commands) (executed: no; source: p04-policy; scope: run_command ["npm","test","--","--evil"] in ${temp.ws})`,
    ],
    [
      "denied at the workspace boundary",
      "read_file",
      { path: "../secret.txt" },
      "call_1",
      'Error [permission_denied]: Reading outside the workspace is forbidden (executed: no; source: workspace-boundary; scope: read of "../secret.txt" by read_file)',
    ],
    [
      "an external effect",
      "fetch_url",
      { url: "https://example.com" },
      "call_1",
      "Error [policy_denied]: network_or_external_effect_not_allowed: fetch_url reaches outside this machine; P04 never allows an external effect (executed: no; source: p04-policy; scope: every fetch_url call)",
    ],
    [
      "denied by the person",
      "run_command",
      { command: "npm", args: ["test"] },
      "call_no",
      "Error [permission_denied]: User denied this tool call (executed: no; source: terminal-approval; scope: this call only)",
    ],
    [
      "execution failed: the command ran",
      "run_command",
      { command: "npm", args: ["test"] },
      "call_1",
      "Error [shell_failed]: npm exited with code 2 (the command ran) (executed: yes)\n1 failed",
    ],
    [
      "execution failed: a file tool touched nothing",
      "read_file",
      { path: "missing.txt" },
      "call_1",
      /^Error \[file_not_found\]: [^\n]* \(executed: no\)$/u,
    ],
  ] as const)("%s", async (_, name, args, id, expected) => {
    const { content, outcome } = await told(name, args, id);
    if (typeof expected === "function") expect(content).toBe(expected());
    else if (typeof expected === "string") expect(content).toBe(expected);
    else expect(content).toMatch(expected);
    // The note is the outcome record's, word for word.
    const note = `executed: ${outcome?.executed ?? "?"}`;
    expect(content.split("\n")[0]).toContain(`(${note}`);
    if (outcome?.status === "denied") {
      expect(content).toContain(`source: ${outcome.decision?.source ?? "?"}`);
    }
  });

  it("only the approved command started; every denial started nothing", async () => {
    await told("run_command", { command: "npm", args: ["test"] }, "call_no");
    await told("run_command", { command: "npm", args: ["test", "-u"] });
    expect(started).toEqual([]);
    await told("run_command", { command: "npm", args: ["test"] });
    expect(started).toEqual([["npm", "test"]]);
  });
});
