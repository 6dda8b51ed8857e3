import { describe, expect, it } from "vitest";
import { bothObservers } from "../../../src/cli/modes/script-output.js";
import type { ToolOutcome } from "../../../src/core/tools/tool-outcome.js";
import { toolSuccess } from "../../../src/core/tools/tool-result.js";

describe("bothObservers", () => {
  it("lets each observer prepare, the second even when the first fails", () => {
    const prepared: string[] = [];
    const both = bothObservers(
      {
        prepare: () => {
          prepared.push("first");
          throw new Error("display broken");
        },
      },
      {
        prepare: () => {
          prepared.push("second");
        },
      },
    );
    both.prepare?.();
    expect(prepared).toEqual(["first", "second"]);
  });

  it("hands each observer the sandbox's notes with the call's end", () => {
    const seen: [string, readonly string[]][] = [];
    const observer = (name: string) => ({
      onToolCallEnd: (...args: [unknown, unknown, unknown, unknown, readonly string[]]) =>
        void seen.push([name, args[4]]),
    });
    const outcome: ToolOutcome = {
      callId: "c1",
      tool: "shell",
      executed: "yes",
      status: "ok",
      boundary: "execution",
      durationMs: 1,
    };
    const call = { id: "c1", name: "shell", arguments: "{}" };
    bothObservers(observer("first"), observer("second")).onToolCallEnd?.(
      call,
      toolSuccess("x"),
      1,
      outcome,
      ["a"],
    );
    expect(seen).toEqual([
      ["first", ["a"]],
      ["second", ["a"]],
    ]);
  });
});
