/**
 * The second seed's Step 3 checks, run against `src/core/grants/policy.ts` under the seed's own
 * names. The seed document is not in the repository: the first expectation is the one issue 30
 * quotes word for word; the others are the seed's checks as issues 17 and 30 state them
 * (changed args → `argv_not_allowed`, the external tool denied, the request bound to the action).
 */
import { describe, expect, it } from "vitest";
import { authorize, type PolicyContext } from "../../../src/core/grants/policy.js";
import { externalTool, readFileTool, runCommandTool } from "../../support/seed-tools.js";

const context: PolicyContext = {
  cwd: "/workspace",
  realWorkspaceRoot: "/workspace",
  allowedArgv: [["npm", "test"]],
  network: "disabled",
};

const allowedTest = runCommandTool.prepare({ command: "npm", args: ["test"] }).input;

describe("Step 3: the policy decides on the prepared input and its context", () => {
  it("asks before running an allowed test command", () => {
    expect(authorize(runCommandTool, allowedTest, context).type).toBe("ask");
  });

  it("denies an argv the harness did not generate", () => {
    const changed = runCommandTool.prepare({ command: "npm", args: ["test", "--watch"] }).input;
    const decision = authorize(runCommandTool, changed, context);
    expect(decision.type).toBe("deny");
    expect(decision.type === "deny" && decision.reason).toBe("argv_not_allowed");
  });

  it("answers in exactly the seed's shapes, so whole decisions compare equal", () => {
    const changed = runCommandTool.prepare({ command: "npm", args: ["test", "--watch"] }).input;
    expect(authorize(runCommandTool, changed, context)).toEqual({
      type: "deny",
      reason: "argv_not_allowed",
    });
    expect(authorize(readFileTool, { path: "src/a.ts" }, context)).toEqual({
      type: "allow",
      scope: 'read of "src/a.ts", checked by name',
    });
  });

  it("denies a tool with an external effect", () => {
    const input = externalTool.prepare({ url: "https://example.com" }).input;
    expect(authorize(externalTool, input, context).type).toBe("deny");
  });

  it("denies everything once the network is enabled", () => {
    const decision = authorize(runCommandTool, allowedTest, { ...context, network: "enabled" });
    expect(decision.type === "deny" && decision.reason).toBe(
      "network_or_external_effect_not_allowed",
    );
  });

  it("binds the request to the exact action: other arguments, cwd or network, another digest", () => {
    const digestOf = (ctx: PolicyContext, input = allowedTest): string => {
      const decision = authorize(runCommandTool, input, ctx);
      if (decision.type !== "ask") throw new Error(`expected ask, got ${decision.type}`);
      return decision.request.actionDigest;
    };
    const base = digestOf(context);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(digestOf(context)).toBe(base);
    expect(digestOf({ ...context, cwd: "/elsewhere" })).not.toBe(base);
    const both = {
      ...context,
      allowedArgv: [
        ["npm", "test"],
        ["npm", "run", "lint"],
      ],
    };
    const lint = runCommandTool.prepare({ command: "npm", args: ["run", "lint"] }).input;
    expect(digestOf(both, lint)).not.toBe(base);
  });

  it("an ApprovalRequest says what runs, where, and its risks, and expires", () => {
    const decision = authorize(runCommandTool, allowedTest, context);
    if (decision.type !== "ask") throw new Error(`expected ask, got ${decision.type}`);
    const { request } = decision;
    expect(Object.keys(request).sort()).toEqual([
      "actionDigest",
      "expiresAt",
      "id",
      "risks",
      "summary",
    ]);
    expect(request.summary).toContain('["npm","test"]');
    expect(request.summary).toContain("/workspace");
    expect(request.risks.length).toBeGreaterThan(0);
    expect(Date.parse(request.expiresAt)).toBeGreaterThan(Date.now());
  });

  it("invalid command input is denied before the allowlist is consulted", () => {
    const decision = authorize(runCommandTool, { command: "npm test", args: [] }, context);
    expect(decision.type === "deny" && decision.reason).toBe("invalid_command_input");
  });

  it("reads are authorized by workspace path: a path that climbs out is denied", () => {
    const outside = authorize(readFileTool, { path: "../package.json" }, context);
    expect(outside.type === "deny" && outside.reason).toBe("path_outside_workspace");
    expect(authorize(readFileTool, { path: "/etc/passwd" }, context).type).toBe("deny");
    expect(authorize(readFileTool, { path: "src/../package.json" }, context).type).toBe("allow");
  });
});
