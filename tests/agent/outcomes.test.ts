/**
 * Every tool call's outcome says whether its action ran, through the real loop (buildAgent, the P03
 * policy, a real shell on the host): the four failure paths, a timeout and a Ctrl-C.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createShellExecution } from "../../src/adapters/execution/index.js";
import { WorkspaceOutputStore } from "../../src/adapters/filesystem/index.js";
import { buildAgent } from "../../src/bootstrap/build-agent.js";
import { RunCancelledError } from "../../src/core/common/agent-errors.js";
import { PermissionDecision } from "../../src/core/policy/permission-decision.js";
import { P03 } from "../../src/core/profiles.js";
import type { ToolOutcome } from "../../src/core/tools/tool-outcome.js";
import { RecordingApprover, RecordingAuditSink } from "../support/permission-fakes.js";
import { ScriptedModelClient, textReply, toolCallReply } from "../support/scripted-model.js";
import { makeTempWorkspace, type TempWorkspace } from "../support/workspace.js";

const POSIX = process.platform !== "win32";

describe.runIf(POSIX)("tool outcomes through the real loop", () => {
  let temp: TempWorkspace;
  beforeEach(async () => {
    temp = await makeTempWorkspace();
  });
  afterEach(async () => {
    await temp.cleanup();
  });

  /** A real POSIX shell on the host: no sandbox, a fixed PATH, nothing passed through. */
  function hostShell() {
    return createShellExecution({
      sandbox: "off",
      network: false,
      shell: "posix",
      workspace: temp.workspace,
      env: { PATH: "/usr/bin:/bin" },
      platform: process.platform,
      passEnv: [],
    });
  }

  async function agentFor(
    calls: { id: string; name: string; arguments: unknown }[],
    options: { commandTimeoutMs?: number; onApprove?: () => void; outputs?: boolean } = {},
  ) {
    const execution = await hostShell();
    const observed: ToolOutcome[] = [];
    const approver = new RecordingApprover((request) => {
      if (request.toolName !== "shell") {
        return PermissionDecision.deny("User denied this tool call", "test-approver");
      }
      options.onApprove?.();
      return PermissionDecision.allow("User approved this tool call", "test-approver");
    });
    const agent = buildAgent(P03, {
      model: new ScriptedModelClient([toolCallReply(calls), textReply("done")]),
      workspace: temp.workspace,
      commandRunner: execution.runner,
      executionEnvironment: execution.environment,
      approvalProvider: approver,
      auditSink: new RecordingAuditSink(),
      observer: { onToolCallEnd: (_call, _result, _ms, outcome) => observed.push(outcome) },
      ...(options.commandTimeoutMs === undefined
        ? {}
        : { commandTimeoutMs: options.commandTimeoutMs }),
      ...(options.outputs === true ? { outputs: WorkspaceOutputStore.open(temp.workspace) } : {}),
    });
    return { agent, observed };
  }

  /** An outcome as a table row: [callId, executed, status, boundary, exitCode, errorCode]. */
  const facts = (outcome: ToolOutcome | undefined) =>
    outcome === undefined
      ? undefined
      : [
          outcome.callId,
          outcome.executed,
          outcome.status,
          outcome.boundary,
          outcome.exitCode,
          outcome.errorCode,
        ];

  it("tells the four failure paths apart, and a call that ran", async () => {
    const { agent, observed } = await agentFor([
      { id: "unknown", name: "deploy", arguments: {} },
      { id: "invalid", name: "read_file", arguments: { path: 7 } },
      { id: "denied", name: "write_file", arguments: { path: "a.txt", content: "x" } },
      { id: "failed", name: "shell", arguments: { command: "echo partial; exit 2" } },
      { id: "ok", name: "shell", arguments: { command: "echo fine" } },
    ]);
    const result = await agent.run("go");

    expect(result.outcomes.map(facts)).toEqual([
      ["unknown", "no", "unknown_tool", "visibility", undefined, "unknown_tool"],
      ["invalid", "no", "invalid_arguments", "protocol", undefined, "invalid_arguments"],
      ["denied", "no", "denied", "confirmation", undefined, "permission_denied"],
      ["failed", "yes", "execution_failed", "execution", 2, "shell_failed"],
      ["ok", "yes", "ok", "execution", 0, undefined],
    ]);
    expect(observed).toEqual(result.outcomes);
    expect(result.outcomes[2]?.decision).toEqual({
      source: "test-approver",
      reason: "User denied this tool call",
    });
    expect(result.outcomes[3]?.environment).toBe("sandbox: none — runs on the host (sandbox off)");
    expect(result.outcomes[0]?.environment).toBeUndefined();
  });

  it("a long output's outcome names the saved file, and every shell outcome its final arguments", async () => {
    const { agent } = await agentFor(
      [{ id: "long", name: "shell", arguments: { command: "seq 1 100000" } }],
      { outputs: true },
    );
    const result = await agent.run("go");
    expect(result.outcomes[0]).toMatchObject({
      executed: "yes",
      status: "ok",
      exitCode: 0,
      savedOutput: ".agent/outputs/long.log",
      finalArguments: {
        cwd: temp.workspace,
        timeoutMs: 120_000,
        maxOutputBytes: 51_200,
        shell: "bash",
      },
    });
  });

  it("a command that swapped .agent for a link refuses the next one: it does not run", async () => {
    const { agent } = await agentFor(
      [
        {
          id: "swap",
          name: "shell",
          arguments: { command: `mv .agent moved && ln -s ${temp.outside} .agent` },
        },
        { id: "next", name: "shell", arguments: { command: "touch ran; seq 1 100000" } },
      ],
      { outputs: true },
    );
    const result = await agent.run("go");
    expect(result.outcomes.map(facts)).toEqual([
      ["swap", "yes", "ok", "execution", 0, undefined],
      ["next", "no", "execution_failed", "execution", undefined, "shell_start_failed"],
    ]);
    const refused = result.history.find(
      (message) => message.role === "tool" && message.toolCallId === "next",
    );
    expect(refused?.content).toBe(
      "Error [shell_start_failed]: The harness saves long command outputs in .agent/outputs, " +
        "and .agent was replaced or moved since the harness made it; no command runs until the " +
        "person removes or repairs .agent, which the harness makes again when it is gone " +
        "(the command did not run)",
    );
    expect(existsSync(join(temp.workspace, "ran"))).toBe(false);
    expect(readdirSync(temp.outside)).toEqual([]);
  });

  it("the audit sink receives each outcome after its decision; one that throws ends nothing", async () => {
    const execution = await hostShell();
    const events: string[] = [];
    const auditSink = {
      record: (request: { toolName: string }) => {
        events.push(`decision ${request.toolName}`);
      },
      recordOutcome: (outcome: ToolOutcome) => {
        events.push(`outcome ${outcome.callId} ${outcome.status}`);
        throw new Error("disk full");
      },
    };
    const agent = buildAgent(P03, {
      model: new ScriptedModelClient([
        toolCallReply([
          { id: "a", name: "shell", arguments: { command: "true" } },
          { id: "b", name: "nope", arguments: {} },
        ]),
        textReply("done"),
      ]),
      workspace: temp.workspace,
      commandRunner: execution.runner,
      approvalProvider: new RecordingApprover(() =>
        PermissionDecision.allow("User approved this tool call", "test-approver"),
      ),
      auditSink,
    });
    const result = await agent.run("go");
    expect(result.finalText).toBe("done");
    expect(events).toEqual(["decision shell", "outcome a ok", "outcome b unknown_tool"]);
  });

  it("a denial by the policy itself is the policy's boundary", async () => {
    const { agent } = await agentFor([
      { id: "escape", name: "write_file", arguments: { path: "../x.txt", content: "x" } },
    ]);
    const result = await agent.run("go");
    expect(result.outcomes.map(facts)).toEqual([
      ["escape", "no", "denied", "policy", undefined, "permission_denied"],
    ]);
  });

  it("a command that timed out ran: executed yes, status timed_out", async () => {
    const { agent } = await agentFor(
      [{ id: "slow", name: "shell", arguments: { command: "sleep 10" } }],
      { commandTimeoutMs: 300 },
    );
    const result = await agent.run("go");
    expect(result.outcomes.map(facts)).toEqual([
      ["slow", "yes", "timed_out", "execution", undefined, "shell_timeout"],
    ]);
  });

  it("a command stopped by Ctrl-C is cancelled, and the run ends", async () => {
    const controller = new AbortController();
    const { agent, observed } = await agentFor(
      [{ id: "long", name: "shell", arguments: { command: ": > started; sleep 10" } }],
      {
        onApprove: () => {
          // Ctrl-C once the command runs: a fixed 300 ms could come before it starts under load.
          void (async () => {
            while (!existsSync(join(temp.workspace, "started"))) {
              await new Promise((resolve) => setTimeout(resolve, 10));
            }
            controller.abort();
          })();
        },
      },
    );
    await expect(agent.run("go", controller.signal)).rejects.toBeInstanceOf(RunCancelledError);
    expect(observed.map(facts)).toEqual([
      ["long", "yes", "cancelled", "execution", undefined, "shell_cancelled"],
    ]);
  });

  it("Ctrl-C at the prompt: the call is cancelled and never ran", async () => {
    const execution = await hostShell();
    const observed: ToolOutcome[] = [];
    const agent = buildAgent(P03, {
      model: new ScriptedModelClient([
        toolCallReply([{ id: "s", name: "shell", arguments: { command: "touch marker" } }]),
        textReply("never"),
      ]),
      workspace: temp.workspace,
      commandRunner: execution.runner,
      approvalProvider: new RecordingApprover(() => Promise.reject(new RunCancelledError())),
      auditSink: new RecordingAuditSink(),
      observer: { onToolCallEnd: (_call, _result, _ms, outcome) => observed.push(outcome) },
    });
    await expect(agent.run("go")).rejects.toBeInstanceOf(RunCancelledError);
    expect(observed.map(facts)).toEqual([
      ["s", "no", "cancelled", "confirmation", undefined, "cancelled"],
    ]);
  });
});
