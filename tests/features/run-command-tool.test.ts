import { describe, expect, it } from "vitest";
import { OutputStoreError } from "../../src/core/ports/command-runner.js";
import { createRunCommandTool } from "../../src/features/run-command-tool.js";

describe("run_command and the output store", () => {
  it("a store a command replaced refuses the next command before it starts", async () => {
    const started: string[][] = [];
    const tool = createRunCommandTool({
      runner: {
        run: (argv) => {
          started.push([...argv]);
          return Promise.resolve({ exitCode: 0, output: "", truncated: false, timedOut: false });
        },
      },
      workspace: "/ws",
      outputs: {
        prepareForCommand: () => {
          throw new OutputStoreError(".agent was replaced");
        },
        spillFor: () => {
          throw new Error("never asked: the command does not start");
        },
      },
    });
    const result = await tool.handler({ command: "npm", args: ["test"] }, { callId: "call_1" });
    expect(started).toEqual([]);
    expect(result).toMatchObject({
      isError: true,
      errorCode: "shell_start_failed",
      content: "Error [shell_start_failed]: .agent was replaced (the command did not run)",
    });
  });
});
