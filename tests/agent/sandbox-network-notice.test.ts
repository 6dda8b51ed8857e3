import { describe, expect, it } from "vitest";
import { buildAgent } from "../../src/bootstrap/build-agent.js";
import { P03 } from "../../src/core/profiles.js";
import { SANDBOX_NETWORK_OFF_NOTICE } from "../../src/features/sandbox-network-notice.js";
import { RecordingApprover, RecordingAuditSink } from "../support/permission-fakes.js";
import { RecordingCommandRunner } from "../support/recording-command-runner.js";
import { ScriptedModelClient, textReply } from "../support/scripted-model.js";

/** The system prompt and the shell tool's description the model is sent on its first request. */
async function firstRequest(sandboxNetworkOff: boolean | undefined) {
  const model = new ScriptedModelClient([textReply("hi")]);
  const agent = buildAgent(P03, {
    workspace: "/nonexistent-workspace-for-offline-tests",
    commandRunner: new RecordingCommandRunner(),
    model,
    approvalProvider: new RecordingApprover(() => undefined),
    auditSink: new RecordingAuditSink(),
    ...(sandboxNetworkOff === undefined ? {} : { sandboxNetworkOff }),
  });
  await agent.run("hello");
  const request = model.requests[0];
  const system = request?.messages.find((message) => message.role === "system");
  const shell = request?.tools.find((tool) => tool.name === "shell");
  return { system: system?.content ?? "", shell: shell?.description ?? "" };
}

describe("the model is told once that the sandbox's network is off", () => {
  it("in the system prompt and the shell tool's description, each exactly once", async () => {
    const { system, shell } = await firstRequest(true);
    expect(system.split(SANDBOX_NETWORK_OFF_NOTICE)).toHaveLength(2);
    expect(shell.endsWith(` ${SANDBOX_NETWORK_OFF_NOTICE}`)).toBe(true);
    expect(SANDBOX_NETWORK_OFF_NOTICE).toContain("re-run the agent with --network");
    // git add and commit fail there (.git is read-only): the model leaves them to the person
    // instead of asking for a command that cannot work.
    expect(SANDBOX_NETWORK_OFF_NOTICE).toContain(
      "git metadata is read-only there: git add, commit and other commands that write it fail",
    );
  });

  it.each([false, undefined])("not at all when it is not off (%s)", async (networkOff) => {
    const { system, shell } = await firstRequest(networkOff);
    expect(system).not.toContain("network");
    expect(shell).not.toContain("network");
  });
});
