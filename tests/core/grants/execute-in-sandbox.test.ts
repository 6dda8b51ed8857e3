import { describe, expect, it } from "vitest";
import { executeInSandbox } from "../../../src/core/grants/execute-in-sandbox.js";
import type { ExecutionEnvironmentStatus } from "../../../src/core/policy/execution-environment.js";
import { toolSuccess } from "../../../src/core/tools/tool-result.js";

function environment(status: () => ExecutionEnvironmentStatus) {
  return { status };
}

describe("executeInSandbox(() => prepared.execute(context), { network: 'disabled' })", () => {
  it("runs the call in an isolated sandbox", async () => {
    let ran = 0;
    const result = await executeInSandbox(
      () => {
        ran += 1;
        return Promise.resolve(toolSuccess("ok"));
      },
      { network: "disabled" },
      environment(() => ({
        kind: "isolated",
        network: "disabled",
        label: "sandbox: bwrap (network off, writable: /ws)",
      })),
    );
    expect(result).toEqual({ content: "ok", isError: false });
    expect(ran).toBe(1);
  });

  it.each<[string, () => ExecutionEnvironmentStatus, string]>([
    [
      "on the host",
      () => ({ kind: "host", label: "sandbox: none — runs on the host" }),
      "Error [sandbox_unavailable]: commands run only in the sandbox, and there is none (sandbox: none — runs on the host)",
    ],
    [
      "when the sandbox is unavailable",
      () => ({ kind: "unavailable", reason: "bwrap is not installed" }),
      "Error [sandbox_unavailable]: commands run only in the sandbox, and there is none (sandbox: unavailable — bwrap is not installed)",
    ],
    [
      "in a sandbox that reaches the network",
      () => ({
        kind: "isolated",
        network: "enabled",
        label: "sandbox: bwrap (network on, writable: /ws)",
      }),
      "Error [sandbox_unavailable]: commands run only in a sandbox with the network disabled, and this one has it enabled (sandbox: bwrap (network on, writable: /ws))",
    ],
    [
      "when the status throws",
      () => {
        throw new Error("boom");
      },
      "Error [sandbox_unavailable]: the sandbox could not be checked",
    ],
  ])("runs nothing %s", async (_label, status, content) => {
    let ran = 0;
    const result = await executeInSandbox(
      () => {
        ran += 1;
        return Promise.resolve(toolSuccess("ok"));
      },
      { network: "disabled" },
      environment(status),
    );
    expect(result).toEqual({ content, isError: true, errorCode: "sandbox_unavailable" });
    expect(ran).toBe(0);
  });
});
