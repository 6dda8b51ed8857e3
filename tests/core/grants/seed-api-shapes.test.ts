/**
 * The second seed's API under its own shapes: `authorize(tool, input: unknown, context)`, the
 * network rule for every execute or external tool, and `prepare` returning a `PreparedToolCall`
 * whose `execute(context)` runs the tool.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { authorize, type PolicyContext } from "../../../src/core/grants/policy.js";
import { registeredTool } from "../../../src/core/tools/registered-tool.js";
import { PreparedToolCall } from "../../../src/core/tools/prepared-tool-call.js";
import { defineTool } from "../../../src/core/tools/tool-definition.js";
import { toolSuccess } from "../../../src/core/tools/tool-result.js";
import { probeTool } from "../../support/prepared-calls.js";
import { externalTool, readFileTool, runCommandTool } from "../../support/seed-tools.js";

const context: PolicyContext = {
  cwd: "/workspace",
  realWorkspaceRoot: "/workspace",
  allowedArgv: [["npm", "test"]],
  network: "disabled",
};

const shellTool = registeredTool(probeTool("shell", "execute"));

describe("authorize(tool, input: unknown, context)", () => {
  it.each<[string, unknown]>([
    ["null", null],
    ["undefined", undefined],
    ["a string", "npm test"],
    ["an array", ["npm", "test"]],
  ])("run_command with %s as input is invalid_command_input, not a TypeError", (_label, input) => {
    expect(authorize(runCommandTool, input, context)).toEqual({
      type: "deny",
      reason: "invalid_command_input",
    });
  });

  it("a read or write whose input is not an object is denied invalid_input", () => {
    expect(authorize(readFileTool, null, context)).toEqual({
      type: "deny",
      reason: "invalid_input",
    });
  });

  it("with the network enabled every execute or external tool is denied for the network", () => {
    const enabled: PolicyContext = { ...context, network: "enabled" };
    const denied = { type: "deny", reason: "network_or_external_effect_not_allowed" };
    expect(authorize(shellTool, { command: "ls" }, enabled)).toEqual(denied);
    expect(authorize(runCommandTool, { command: "npm", args: ["test"] }, enabled)).toEqual(denied);
    expect(authorize(externalTool, { url: "https://example.com" }, enabled)).toEqual(denied);
    expect(authorize(externalTool, { url: "https://example.com" }, context)).toEqual(denied);
    // Without the network, an execute tool that is not run_command has no policy.
    expect(authorize(shellTool, { command: "ls" }, context)).toEqual({
      type: "deny",
      reason: "no_matching_policy",
    });
  });
});

describe("RegisteredTool.prepare returns a PreparedToolCall", () => {
  it("whose input is the parsed input and whose execute(context) runs the handler", async () => {
    const seen: unknown[] = [];
    const echo = registeredTool(
      defineTool({
        name: "echo",
        description: "Echoes its text",
        effect: "read",
        schema: z.strictObject({ text: z.string(), times: z.number().default(1) }),
        handler: (args, toolContext) => {
          seen.push([args, toolContext.workspace]);
          return Promise.resolve(toolSuccess(args.text.repeat(args.times)));
        },
      }),
    );
    const prepared = echo.prepare({ text: "ab" });
    expect(prepared).toBeInstanceOf(PreparedToolCall);
    expect(prepared.input).toEqual({ text: "ab", times: 1 });
    expect(seen).toEqual([]);
    expect(await prepared.execute({ workspace: "/workspace" })).toEqual({
      content: "ab",
      isError: false,
    });
    expect(seen).toEqual([[{ text: "ab", times: 1 }, "/workspace"]]);
  });

  it("throws on an input its schema refuses, as the seed's definition.schema.parse does", () => {
    expect(() => runCommandTool.prepare({ command: "npm", args: "test" })).toThrow();
    expect(() => runCommandTool.prepare({ command: "npm", args: [], extra: 1 })).toThrow();
  });

  it("the seed's order: prepare, authorize on prepared.input, and only then execute", () => {
    const prepared = runCommandTool.prepare({ command: "npm", args: ["test", "--watch"] });
    const decision = authorize(runCommandTool, prepared.input, context);
    expect(decision).toEqual({ type: "deny", reason: "argv_not_allowed" });
  });
});
