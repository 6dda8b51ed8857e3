import { describe, expect, it } from "vitest";
import { PermissionContractError } from "../../../src/core/policy/permission-decision.js";
import {
  PermissionRule,
  type PermissionRuleSpec,
} from "../../../src/core/policy/permission-rule.js";

const spec: PermissionRuleSpec = {
  name: "confirm-file-write",
  behavior: "ask",
  reason: "File writes require explicit approval from chapter 3 onward",
  matches: (request) => request.toolName === "write_file",
};

function ruleError(overrides: Partial<Record<keyof PermissionRuleSpec, unknown>>): unknown {
  try {
    return new PermissionRule({ ...spec, ...overrides } as PermissionRuleSpec);
  } catch (error) {
    return error;
  }
}

describe("PermissionRule", () => {
  it("keeps its fields and is frozen", () => {
    const rule = new PermissionRule(spec);
    expect({ name: rule.name, behavior: rule.behavior, reason: rule.reason }).toEqual({
      name: "confirm-file-write",
      behavior: "ask",
      reason: "File writes require explicit approval from chapter 3 onward",
    });
    expect(rule.matches).toBe(spec.matches);
    expect(Object.isFrozen(rule)).toBe(true);
    expect(() => {
      Object.assign(rule, { behavior: "allow" });
    }).toThrow(TypeError);
  });

  it.each<[string, Partial<Record<keyof PermissionRuleSpec, unknown>>, string]>([
    ["an empty name", { name: "" }, "A permission rule needs a non-empty name"],
    ["a blank name", { name: " " }, "A permission rule needs a non-empty name"],
    ["a non-string name", { name: 1 }, "A permission rule needs a non-empty name"],
    [
      "an invalid behavior",
      { behavior: "block" },
      "Permission rule confirm-file-write has an invalid behavior: block",
    ],
    [
      "an empty reason",
      { reason: "" },
      "Permission rule confirm-file-write needs a non-empty reason",
    ],
    [
      "a matcher that is not callable",
      { matches: true },
      "Permission rule confirm-file-write needs a matches function",
    ],
  ])("rejects %s with PermissionContractError", (_label, overrides, message) => {
    const error = ruleError(overrides);
    expect(error).toBeInstanceOf(PermissionContractError);
    expect(error).toMatchObject({ message });
  });
});
