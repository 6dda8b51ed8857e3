import { describe, expect, it } from "vitest";
import { RunWaitingError } from "../../../src/core/common/agent-errors.js";
import { AgentRunner } from "../../../src/core/runner/agent-runner.js";
import { GrantApprovalProvider } from "../../../src/core/grants/grant-approval.js";
import { P04Authorizer } from "../../../src/core/grants/p04-authorizer.js";
import { PermissionPolicy } from "../../../src/core/policy/permissions.js";
import { ToolRegistry } from "../../../src/core/tools/tool-registry.js";
import { createRunCommandTool } from "../../../src/features/run-command-tool.js";
import { RecordingAuditSink, commandChecksThatPass } from "../../support/permission-fakes.js";
import { ScriptedModelClient, toolCallReply } from "../../support/scripted-model.js";

describe("a P04 call that waits", () => {
  it("stops the run with RunWaitingError, audited as ask, the command never started", async () => {
    const started: string[][] = [];
    const registry = new ToolRegistry([
      createRunCommandTool({
        runner: {
          run: (argv) => {
            started.push([...argv]);
            return Promise.resolve({ exitCode: 0, output: "", truncated: false, timedOut: false });
          },
        },
        workspace: "/ws",
        // The checks pass: what keeps the command from starting is the policy's wait alone.
        ...commandChecksThatPass(),
      }),
    ]);
    const saved: string[] = [];
    const audit = new RecordingAuditSink();
    const sandbox = {
      kind: "isolated",
      network: "disabled",
      label: "sandbox: bwrap (network off, writable: /ws)",
    } as const;
    const policy = new PermissionPolicy({
      authorizer: new P04Authorizer(() => ({
        cwd: "/ws",
        realWorkspaceRoot: "/ws",
        allowedArgv: [["npm", "test"]],
        network: "disabled",
        sandbox,
        now: 0,
        requestTtlMs: 1000,
        newRequestId: () => "req_00000000000000bb",
        classifyPath: () => "outside",
      })),
      approval: new GrantApprovalProvider({
        grants: {
          saveApprovalRequest: (_runId, request) => saved.push(request.id),
          approve: () => undefined,
          deny: () => undefined,
          consumeApprovalGrant: () => undefined,
          consumeDenial: () => undefined,
          waitingRequest: () => undefined,
          grantForCall: () => undefined,
        },
        runId: "run",
        grantTtlMs: 1000,
      }),
      audit,
      executionEnvironment: { status: () => sandbox },
    });
    const runner = new AgentRunner({
      model: new ScriptedModelClient([
        toolCallReply([
          { id: "call_1", name: "run_command", arguments: { command: "npm", args: ["test"] } },
        ]),
      ]),
      registry,
      policy,
      maxTurns: 3,
    });
    const error = await runner.run("run the tests").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RunWaitingError);
    // The seed's waiting result, as the run stops.
    expect((error as RunWaitingError).waiting).toEqual({
      type: "waiting",
      requestId: "req_00000000000000bb",
      reason: "approval_required",
    });
    expect(started).toEqual([]);
    expect(saved).toEqual(["req_00000000000000bb"]);
    expect(audit.lines()).toEqual([
      "run_command: ask (p04-policy) - Waiting for approval: request req_00000000000000bb (agent approve req_00000000000000bb, or agent deny req_00000000000000bb)",
    ]);
  });
});
