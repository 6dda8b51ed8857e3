/** The tutorial's chapter-3 names, beside ours: `isAllowed` and `PermissionRule.evaluate`. */
import { describe, expect, it } from "vitest";
import { PermissionDecision } from "../../../src/core/policy/permission-decision.js";
import { PermissionRequest } from "../../../src/core/policy/permission-request.js";
import { PermissionRule } from "../../../src/core/policy/permission-rule.js";
import { preparedCall } from "../../support/prepared-calls.js";

const request = new PermissionRequest(preparedCall("write_file", "write", { path: "a" }));

describe("chapter 3's names", () => {
  it("PermissionDecision.isAllowed is true for allow only", () => {
    expect(PermissionDecision.allow("ok", "s").isAllowed).toBe(true);
    expect(PermissionDecision.deny("no", "s").isAllowed).toBe(false);
    expect(PermissionDecision.ask("maybe", "s").isAllowed).toBe(false);
    expect(new PermissionDecision("passthrough", "none", "s").isAllowed).toBe(false);
  });

  it("PermissionRule.evaluate(request): its decision on a match, nothing otherwise", () => {
    const rule = (matches: (r: PermissionRequest) => boolean) =>
      new PermissionRule({ name: "confirm-file-write", behavior: "ask", reason: "Why", matches });
    const matched = rule((r) => r.toolName === "write_file").evaluate(request);
    expect(matched && [matched.behavior, matched.reason, matched.source]).toEqual([
      "ask",
      "Why",
      "confirm-file-write",
    ]);
    expect(rule(() => false).evaluate(request)).toBeUndefined();
  });

  it.each<[string, () => unknown]>([
    [
      "throws",
      () => {
        throw new Error("boom");
      },
    ],
    ["answers a non-boolean", () => "yes"],
  ])("a rule whose matcher %s denies, named after the rule", (_, matches) => {
    const broken = new PermissionRule({
      name: "broken",
      behavior: "allow",
      reason: "r",
      matches: matches as (r: PermissionRequest) => boolean,
    });
    const decision = broken.evaluate(request);
    expect(decision && [decision.behavior, decision.reason, decision.source]).toEqual([
      "deny",
      "Permission rule failed: broken",
      "broken",
    ]);
  });
});
