import { describe, expect, it } from "vitest";
import { isToolResult, toolError, toolSuccess } from "../../../src/core/tools/tool-result.js";

describe("toolSuccess and toolError", () => {
  it("toolSuccess carries the content and is frozen", () => {
    const result = toolSuccess("hello");
    expect(result).toEqual({ content: "hello", isError: false });
    expect(Object.keys(result)).toEqual(["content", "isError"]);
    expect(Object.isFrozen(result)).toBe(true);
  });

  it("toolError reads `Error [code]: message` and is frozen", () => {
    const result = toolError("shell_timeout", "Command timed out after 120 s");
    expect(result).toEqual({
      content: "Error [shell_timeout]: Command timed out after 120 s",
      isError: true,
      errorCode: "shell_timeout",
    });
    expect(Object.isFrozen(result)).toBe(true);
  });

  it("a frozen result cannot be rewritten", () => {
    const result = toolError("permission_denied", "no");
    expect(() => {
      Object.assign(result, { content: "allowed" });
    }).toThrow(TypeError);
    expect(result.content).toBe("Error [permission_denied]: no");
  });
});

describe("isToolResult", () => {
  it.each<[string, unknown, boolean]>([
    ["a success", toolSuccess("x"), true],
    ["an error", toolError("c", "m"), true],
    ["a plain object with the right fields", { content: "", isError: false }, true],
    ["an error without a code", { content: "x", isError: true }, true],
    ["null", null, false],
    ["undefined", undefined, false],
    ["a string", "x", false],
    ["content missing", { isError: false }, false],
    ["content not a string", { content: 3, isError: false }, false],
    ["isError not a boolean", { content: "x", isError: "false" }, false],
    ["errorCode not a string", { content: "x", isError: true, errorCode: 1 }, false],
    ["errorCode null", { content: "x", isError: true, errorCode: null }, false],
  ])("%s → %s", (_label, value, expected) => {
    expect(isToolResult(value)).toBe(expected);
  });
});
