import { describe, expect, it } from "vitest";
import {
  commandsEndWithTheirCalls,
  type ExecutionEnvironment,
  type ExecutionEnvironmentStatus,
} from "../../../src/core/policy/execution-environment.js";

const reporting = (status: ExecutionEnvironmentStatus): ExecutionEnvironment => ({
  status: () => status,
});

describe("commandsEndWithTheirCalls", () => {
  it("is yes only for a working sandbox", () => {
    expect(
      commandsEndWithTheirCalls(
        reporting({ kind: "isolated", network: "disabled", label: "sandbox: bwrap" }),
      ),
    ).toBe(true);
    expect(commandsEndWithTheirCalls(reporting({ kind: "host", label: "sandbox: none" }))).toBe(
      false,
    );
    // Also while the sandbox is still being set up ("pending" is reported as unavailable).
    expect(commandsEndWithTheirCalls(reporting({ kind: "unavailable", reason: "pending" }))).toBe(
      false,
    );
  });

  it("is no when it cannot be known", () => {
    expect(commandsEndWithTheirCalls(undefined)).toBe(false);
    const broken: ExecutionEnvironment = {
      status: () => {
        throw new Error("status broke");
      },
    };
    expect(commandsEndWithTheirCalls(broken)).toBe(false);
  });
});
