import { describe, expect, it } from "vitest";
import { outcomeNote, withOutcomeNote } from "../../../src/core/runner/outcome-note.js";
import type { ToolOutcome } from "../../../src/core/tools/tool-outcome.js";
import { toolError, toolSuccess } from "../../../src/core/tools/tool-result.js";

const base: ToolOutcome = {
  callId: "c",
  tool: "t",
  executed: "no",
  status: "denied",
  boundary: "policy",
  durationMs: 1,
  decision: { source: "p04-policy", reason: "r", scope: "every t call" },
};

describe("the outcome note the model reads (seed 004)", () => {
  it.each<[string, Partial<ToolOutcome>, string]>([
    ["a denial with its scope", {}, "(executed: no; source: p04-policy; scope: every t call)"],
    [
      "a denial whose source names no scope covers this call only",
      { decision: { source: "terminal-approval", reason: "User denied this tool call" } },
      "(executed: no; source: terminal-approval; scope: this call only)",
    ],
    ["a command that ran", { status: "execution_failed", executed: "yes" }, "(executed: yes)"],
    ["an effect not known", { status: "unknown", executed: "unknown" }, "(executed: unknown)"],
    ["an unknown tool", { status: "unknown_tool" }, "(executed: no)"],
  ])("%s", (_, change, expected) => {
    expect(outcomeNote({ ...base, ...change })).toBe(expected);
  });

  it("ends the error's first line and keeps the rest, the fixed text untouched", () => {
    const ran = { ...base, status: "execution_failed", executed: "yes" } as const;
    const failed = toolError("shell_failed", "bash exited with code 2 (the command ran)\nout\n");
    expect(withOutcomeNote(failed, ran)).toEqual({
      content:
        "Error [shell_failed]: bash exited with code 2 (the command ran) (executed: yes)\nout\n",
      isError: true,
      errorCode: "shell_failed",
    });
    expect(withOutcomeNote(toolError("x", "y"), base).content).toBe(
      "Error [x]: y (executed: no; source: p04-policy; scope: every t call)",
    );
  });

  it("leaves a success as the tool wrote it", () => {
    const ok = toolSuccess("file text");
    expect(withOutcomeNote(ok, { ...base, status: "ok", executed: "yes" })).toBe(ok);
  });
});
