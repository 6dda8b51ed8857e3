import { describe, expect, it } from "vitest";
import {
  isPermissionBehavior,
  PERMISSION_BEHAVIORS,
  PermissionContractError,
  PermissionDecision,
  type PermissionBehavior,
} from "../../../src/core/policy/permission-decision.js";

function contractError(build: () => unknown): unknown {
  try {
    build();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("PERMISSION_BEHAVIORS", () => {
  it("is one frozen tuple of the four behaviors", () => {
    expect(PERMISSION_BEHAVIORS).toEqual(["allow", "deny", "ask", "passthrough"]);
    expect(Object.isFrozen(PERMISSION_BEHAVIORS)).toBe(true);
  });

  it.each<[unknown, boolean]>([
    ["allow", true],
    ["passthrough", true],
    ["ALLOW", false],
    ["", false],
    [true, false],
    [undefined, false],
  ])("isPermissionBehavior(%j) is %s", (value, expected) => {
    expect(isPermissionBehavior(value)).toBe(expected);
  });
});

describe("PermissionDecision construction", () => {
  it.each(PERMISSION_BEHAVIORS)("accepts %s and keeps reason and source", (behavior) => {
    const decision = new PermissionDecision(behavior, "why", "who");
    const { reason, source } = decision;
    expect({ behavior: decision.behavior, reason, source }).toEqual({
      behavior,
      reason: "why",
      source: "who",
    });
  });

  it.each<[string, () => PermissionDecision, string]>([
    [
      "an invalid behavior",
      () => new PermissionDecision("maybe" as PermissionBehavior, "why", "who"),
      "Invalid permission behavior: maybe",
    ],
    [
      "an empty reason",
      () => new PermissionDecision("allow", "", "who"),
      "A permission decision needs a non-empty reason",
    ],
    [
      "a blank reason",
      () => new PermissionDecision("deny", "  ", "who"),
      "A permission decision needs a non-empty reason",
    ],
    [
      "a non-string reason",
      () => new PermissionDecision("deny", 5 as unknown as string, "who"),
      "A permission decision needs a non-empty reason",
    ],
    [
      "an empty source",
      () => new PermissionDecision("ask", "why", ""),
      "A permission decision needs a non-empty source",
    ],
  ])("rejects %s with PermissionContractError", (_label, build, message) => {
    const error = contractError(build);
    expect(error).toBeInstanceOf(PermissionContractError);
    expect(error).toMatchObject({ name: "PermissionContractError", message });
  });

  it("the static helpers build the named behavior", () => {
    expect([
      PermissionDecision.allow("a", "s").behavior,
      PermissionDecision.deny("d", "s").behavior,
      PermissionDecision.ask("q", "s").behavior,
    ]).toEqual(["allow", "deny", "ask"]);
  });

  it("is frozen: a deny cannot be turned into an allow", () => {
    const decision = PermissionDecision.deny("no", "rule");
    expect(Object.isFrozen(decision)).toBe(true);
    expect(() => {
      Object.assign(decision, { behavior: "allow" });
    }).toThrow(TypeError);
    expect(decision.behavior).toBe("deny");
  });

  it("a subclass cannot add state to escape the freeze", () => {
    class Sneaky extends PermissionDecision {
      readonly extra = "x";
    }
    expect(() => new Sneaky("allow", "why", "who")).toThrow(TypeError);
  });
});

describe("toToolResult", () => {
  it("turns a deny into permission_denied with the reason", () => {
    expect(
      PermissionDecision.deny("Writing outside the workspace is forbidden", "b").toToolResult(),
    ).toEqual({
      content: "Error [permission_denied]: Writing outside the workspace is forbidden",
      isError: true,
      errorCode: "permission_denied",
    });
  });

  it.each(["allow", "ask", "passthrough"] as const)("refuses %s", (behavior) => {
    const error = contractError(() =>
      new PermissionDecision(behavior, "why", "who").toToolResult(),
    );
    expect(error).toBeInstanceOf(PermissionContractError);
    expect(error).toMatchObject({
      message: `only a final deny decision can become a tool result (got ${behavior})`,
    });
  });
});

describe("isDecision", () => {
  it("is true only for constructed instances", () => {
    expect(PermissionDecision.isDecision(PermissionDecision.allow("ok", "s"))).toBe(true);
  });

  it.each<[string, unknown]>([
    ["a plain object", { behavior: "allow", reason: "ok", source: "s" }],
    ["true", true],
    ["null", null],
    ["a string", "allow"],
    [
      "a prototype look-alike",
      Object.assign(Object.create(PermissionDecision.prototype) as object, {
        behavior: "allow",
        reason: "ok",
        source: "s",
      }),
    ],
    ["a proxy around a real decision", new Proxy(PermissionDecision.allow("ok", "s"), {})],
  ])("is false for %s", (_label, value) => {
    expect(PermissionDecision.isDecision(value)).toBe(false);
  });
});
