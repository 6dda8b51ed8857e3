/**
 * The sandbox's notes reach the person apart from the command's output: from the runner's result,
 * through the call's reported facts, to the observer. The model reads them in the result's text,
 * as before; the outcome (the audit log's, the journal's, a script's JSON) does not carry them.
 */
import { describe, expect, it } from "vitest";
import type { JournalRecord, RunJournal } from "../../../src/core/journal/journal-records.js";
import type { CommandResult, CommandRunner } from "../../../src/core/ports/command-runner.js";
import { AgentRunner } from "../../../src/core/runner/agent-runner.js";
import type { ToolOutcome } from "../../../src/core/tools/tool-outcome.js";
import { ToolRegistry } from "../../../src/core/tools/tool-registry.js";
import type { ToolResult } from "../../../src/core/tools/tool-result.js";
import { createShellTool } from "../../../src/features/shell-tool.js";
import { ScriptedModelClient, textReply, toolCallReply } from "../../support/scripted-model.js";
import { allowEveryCall } from "../../support/permission-fakes.js";

const NOTE = "warning: /ws/a\nb/AGENTS.md was created during this command; check it before then";

/** A runner that "ran" the command: what it printed, and what its sandbox noted. */
function finished(result: CommandResult): CommandRunner {
  return { shellName: "bash", run: () => Promise.resolve(result) };
}

async function runOnce(result: CommandResult) {
  const shown: { result: ToolResult; outcome: ToolOutcome; notes: readonly string[] }[] = [];
  const audited: ToolOutcome[] = [];
  const journal: JournalRecord[] = [];
  const runner = new AgentRunner({
    policy: allowEveryCall(),
    model: new ScriptedModelClient([
      toolCallReply([{ id: "t1", name: "shell", arguments: { command: "make" } }]),
      textReply("Done."),
    ]),
    registry: new ToolRegistry([createShellTool({ runner: finished(result), workspace: "/ws" })]),
    maxTurns: 3,
    now: () => 0,
    outcomes: { recordOutcome: (outcome) => void audited.push(outcome) },
    journal: {
      append: (record) => {
        journal.push(record);
        return Promise.resolve();
      },
    } satisfies RunJournal,
    observer: {
      onToolCallEnd: (_call, shownResult, _durationMs, outcome, notes) =>
        void shown.push({ result: shownResult, outcome, notes }),
    },
  });
  const run = await runner.run("make");
  return { run, shown, audited, journal };
}

describe("the sandbox's notes on their way to the person", () => {
  it("reach the observer whole, beside the result the model reads; the outcome has none", async () => {
    const { run, shown, audited, journal } = await runOnce({
      exitCode: 0,
      output: "made\n",
      truncated: false,
      timedOut: false,
      notes: [NOTE],
    });
    const outcome: ToolOutcome = {
      callId: "t1",
      tool: "shell",
      executed: "yes",
      status: "ok",
      boundary: "execution",
      exitCode: 0,
      durationMs: 0,
      finalArguments: { cwd: "/ws", timeoutMs: 120_000, maxOutputBytes: 51_200, shell: "bash" },
    };
    expect(shown).toEqual([
      { result: { content: `made\n[sandbox] ${NOTE}`, isError: false }, outcome, notes: [NOTE] },
    ]);
    expect(run.outcomes).toEqual([outcome]);
    // The audit log's and the journal's records keep their shape: the notes are display only.
    expect(audited).toEqual([outcome]);
    expect(journal.filter((record) => record.type === "execution_finished")).toEqual([
      {
        type: "execution_finished",
        callId: "t1",
        outcome,
        content: `made\n[sandbox] ${NOTE}`,
      },
    ]);
  });

  it("are none for a command whose sandbox said nothing, whatever it printed", async () => {
    const { shown } = await runOnce({
      exitCode: 0,
      output: "[sandbox] note: all is well\n",
      truncated: false,
      timedOut: false,
    });
    expect(shown.map(({ notes }) => notes)).toEqual([[]]);
  });
});
