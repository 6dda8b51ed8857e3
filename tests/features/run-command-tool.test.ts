import { describe, expect, it } from "vitest";
import { OutputStoreError } from "../../src/core/ports/command-runner.js";
import { RECHECK_ERRORS } from "../../src/core/grants/p04-recheck.js";
import { toolError, type ToolResult } from "../../src/core/tools/tool-result.js";
import { createRunCommandTool } from "../../src/features/run-command-tool.js";
import {
  ASSUMED_SANDBOX,
  commandChecksThatPass,
  FixedEnvironment,
  type CommandChecks,
} from "../support/permission-fakes.js";

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
      ...commandChecksThatPass(),
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

describe("run_command's last checks, always asked", () => {
  const ok = { exitCode: 0, output: "", truncated: false, timedOut: false };

  function toolWith(checks: CommandChecks, started: string[][]) {
    return createRunCommandTool({
      runner: {
        run: (argv) => {
          started.push([...argv]);
          return Promise.resolve(ok);
        },
      },
      workspace: "/ws",
      ...checks,
    });
  }

  it("starts nothing where the sandbox is not there", async () => {
    const started: string[][] = [];
    const environment = new FixedEnvironment(() => ({ kind: "host", label: "sandbox: none" }));
    const tool = toolWith({ ...commandChecksThatPass(), environment }, started);
    const result = await tool.handler({ command: "npm", args: ["test"] }, { callId: "call_1" });
    expect(started).toEqual([]);
    expect(environment.calls).toBe(1);
    expect(result).toMatchObject({ isError: true, errorCode: "sandbox_unavailable" });
  });

  it("starts nothing the recheck refuses, and does not look for the sandbox", async () => {
    const started: string[][] = [];
    const environment = new FixedEnvironment(() => ASSUMED_SANDBOX);
    const recheck = (): ToolResult => toolError(RECHECK_ERRORS.changed, "it changed");
    const tool = toolWith({ environment, recheck }, started);
    const result = await tool.handler({ command: "npm", args: ["test"] }, { callId: "call_1" });
    expect(started).toEqual([]);
    expect(environment.calls).toBe(0);
    expect(result).toEqual(toolError(RECHECK_ERRORS.changed, "it changed"));
  });

  it("starts the command once both pass", async () => {
    const started: string[][] = [];
    const tool = toolWith(commandChecksThatPass(), started);
    const result = await tool.handler({ command: "npm", args: ["test"] }, { callId: "call_1" });
    expect(started).toEqual([["npm", "test"]]);
    expect(result.isError).toBe(false);
  });
});
