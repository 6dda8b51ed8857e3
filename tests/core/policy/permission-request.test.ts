import { describe, expect, it } from "vitest";
import {
  PermissionContractError,
  PermissionDecision,
} from "../../../src/core/policy/permission-decision.js";
import { PermissionRequest } from "../../../src/core/policy/permission-request.js";
import { PreparedToolCall } from "../../../src/core/tools/prepared-tool-call.js";
import { ToolRegistry } from "../../../src/core/tools/tool-registry.js";
import { preparedCall, probeTool } from "../../support/prepared-calls.js";

function requestError(call: unknown, options?: unknown): unknown {
  try {
    return new PermissionRequest(call as PreparedToolCall, options as undefined);
  } catch (error) {
    return error;
  }
}

describe("PermissionRequest", () => {
  it("accepts a call prepared by the registry and is frozen", () => {
    const call = preparedCall("write_file", "write", { path: "a.txt" });
    const request = new PermissionRequest(call);
    expect(request.call).toBe(call);
    expect(request.toolName).toBe("write_file");
    expect(request.recommendations).toEqual([]);
    expect(request.proposedDecision).toBeUndefined();
    expect(request.executionEnvironment).toBeUndefined();
    expect(Object.isFrozen(request)).toBe(true);
    expect(Object.isFrozen(request.recommendations)).toBe(true);
  });

  const prepared = preparedCall("write_file", "write", { path: "a.txt" });
  const failedOutcome = new ToolRegistry([probeTool("write_file", "write")])
    .snapshot()
    .prepare({ id: "c", name: "write_file", arguments: "[]" });

  it.each<[string, unknown]>([
    [
      "a plain look-alike",
      {
        callId: prepared.callId,
        toolName: prepared.toolName,
        effect: prepared.effect,
        arguments: prepared.arguments,
        rawArguments: prepared.rawArguments,
      },
    ],
    [
      "an object on the PreparedToolCall prototype",
      Object.assign(Object.create(PreparedToolCall.prototype) as object, {
        callId: "c",
        toolName: "write_file",
        effect: "read",
      }),
    ],
    ["a failed prepare outcome", failedOutcome],
    ["a raw tool call", { id: "c", name: "write_file", arguments: "{}" }],
    ["null", null],
  ])("rejects %s", (_label, call) => {
    const error = requestError(call);
    expect(error).toBeInstanceOf(PermissionContractError);
    expect(error).toMatchObject({
      message:
        "permission request requires a valid prepared tool call (one the tool registry prepared)",
    });
  });

  it("rejects recommendations that are not genuine decisions", () => {
    const error = requestError(prepared, {
      recommendations: [{ behavior: "allow", reason: "trust me", source: "model" }],
    });
    expect(error).toBeInstanceOf(PermissionContractError);
    expect(error).toMatchObject({
      message: "Recommendations must be PermissionDecision instances",
    });
  });

  it("copies recommendations so the caller cannot add one later", () => {
    const recommendations = [PermissionDecision.ask("check", "hook")];
    const request = new PermissionRequest(prepared, { recommendations });
    recommendations.push(PermissionDecision.allow("late", "hook"));
    expect(request.recommendations.map((item) => item.reason)).toEqual(["check"]);
  });

  it("withExecutionEnvironment and withProposedDecision return new frozen requests", () => {
    const base = new PermissionRequest(prepared, {
      recommendations: [PermissionDecision.ask("check", "hook")],
    });
    const ask = PermissionDecision.ask("Shell execution requires approval", "shell-default");
    const labelled = base.withExecutionEnvironment("sandbox: none — runs on the host");
    const proposed = labelled.withProposedDecision(ask);
    expect(base.executionEnvironment).toBeUndefined();
    expect(labelled.executionEnvironment).toBe("sandbox: none — runs on the host");
    expect(proposed.executionEnvironment).toBe("sandbox: none — runs on the host");
    expect(proposed.proposedDecision).toBe(ask);
    expect(proposed.call).toBe(prepared);
    expect(proposed.recommendations).toEqual(base.recommendations);
    expect(Object.isFrozen(proposed)).toBe(true);
  });
});
