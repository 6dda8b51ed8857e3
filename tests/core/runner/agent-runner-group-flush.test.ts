/**
 * Group flushes (docs/run-journal.md): the records of a model reply and of a local read are
 * effect-free, so the journal may flush them together; every record is durable before a step with
 * an effect starts and when the run ends, and a power cut that loses a tail of effect-free records
 * resumes as a crash before them always did.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type {
  AppendOptions,
  JournalRecord,
  RunJournal,
} from "../../../src/core/journal/journal-records.js";
import { replayJournal } from "../../../src/core/journal/journal-replay.js";
import { PermissionDecision } from "../../../src/core/policy/permission-decision.js";
import { PermissionPolicy } from "../../../src/core/policy/permissions.js";
import { AgentRunner } from "../../../src/core/runner/agent-runner.js";
import type { ToolDefinition, ToolEffect } from "../../../src/core/tools/tool-definition.js";
import { ToolRegistry } from "../../../src/core/tools/tool-registry.js";
import { toolSuccess } from "../../../src/core/tools/tool-result.js";
import { RecordingApprover } from "../../support/permission-fakes.js";
import { ScriptedModelClient, textReply, toolCallReply } from "../../support/scripted-model.js";

/**
 * Keeps what a journal file would: every record written, and how many of them a flush has made
 * durable (a record that is not effect-free is flushed with everything before it).
 */
class DurabilityJournal implements RunJournal {
  readonly records: JournalRecord[] = [];
  readonly effectFree: boolean[] = [];
  /** After record i was appended, how many records were durable. */
  readonly durableAfter: number[] = [];
  durable = 0;
  append(record: JournalRecord, options?: AppendOptions): Promise<void> {
    this.records.push(structuredClone(record));
    this.effectFree.push(options?.effectFree === true);
    if (options?.effectFree !== true) this.durable = this.records.length;
    this.durableAfter.push(this.durable);
    return Promise.resolve();
  }
}

function tool(name: string, effect: ToolEffect, onRun: () => void): ToolDefinition {
  return {
    name,
    description: name,
    effect,
    schema: z.strictObject({ text: z.string() }),
    handler: (args) => {
      onRun();
      return Promise.resolve(toolSuccess(`${name}: ${String(args.text)}`));
    },
  };
}

const LOOK = { id: "call_look", name: "look", arguments: { text: "a" } };
const RUN = { id: "call_run", name: "run", arguments: { text: "b" } };
const LOOK_AGAIN = { id: "call_look2", name: "look", arguments: { text: "c" } };

/** A run that reads, then runs a command, then reads again, then answers; all allowed. */
function runnerOf(journal: RunJournal, replies: ReturnType<typeof textReply>[], seen: Seen) {
  return new AgentRunner({
    model: new ScriptedModelClient(replies),
    registry: new ToolRegistry([
      tool("look", "read", () => seen.looks.push(seen.journal?.durable ?? -1)),
      tool("run", "execute", () => {
        seen.runs.push(
          seen.journal === undefined ? -1 : seen.journal.records.length - seen.journal.durable,
        );
      }),
    ]),
    policy: new PermissionPolicy({
      approval: new RecordingApprover(() =>
        PermissionDecision.allow("User approved this tool call", "terminal-approval"),
      ),
    }),
    maxTurns: 8,
    systemPrompt: "Be brief.",
    journal,
  });
}

interface Seen {
  journal?: DurabilityJournal;
  /** For each run of `run`: how many records were not yet durable as it started. */
  readonly runs: number[];
  readonly looks: number[];
}

const SCRIPT = [
  toolCallReply([LOOK]),
  toolCallReply([RUN]),
  toolCallReply([LOOK_AGAIN]),
  textReply("Done."),
];

async function wholeRun(): Promise<{ journal: DurabilityJournal; seen: Seen }> {
  const journal = new DurabilityJournal();
  const seen: Seen = { journal, runs: [], looks: [] };
  await runnerOf(journal, SCRIPT, seen).run("Look, run, look");
  return { journal, seen };
}

describe("AgentRunner: group flushes", () => {
  it("marks a reply's and a local read's records effect-free, and no other", async () => {
    const { journal } = await wholeRun();
    const marked = journal.records.map((record, index) => [
      record.type,
      "callId" in record ? record.callId : "",
      journal.effectFree[index],
    ]);
    expect(marked).toEqual([
      ["run_started", "", false],
      ["model_reply", "", true],
      ["call_prepared", "call_look", true],
      ["decision", "call_look", true],
      ["execution_started", "call_look", true],
      ["execution_finished", "call_look", true],
      ["model_reply", "", true],
      ["call_prepared", "call_run", false],
      ["decision", "call_run", false],
      ["execution_started", "call_run", false],
      ["execution_finished", "call_run", false],
      ["model_reply", "", true],
      ["call_prepared", "call_look2", true],
      ["decision", "call_look2", true],
      ["execution_started", "call_look2", true],
      ["execution_finished", "call_look2", true],
      ["model_reply", "", true],
      ["run_finished", "", false],
    ]);
  });

  it("a command starts only once every record before it is durable, and the run ends with all of them durable", async () => {
    const { journal, seen } = await wholeRun();
    expect(seen.runs).toEqual([0]);
    expect(journal.durable).toBe(journal.records.length);
  });

  it("a call refused before it ran leaves effect-free records, whatever its tool", async () => {
    const journal = new DurabilityJournal();
    const seen: Seen = { journal, runs: [], looks: [] };
    const badRun = { id: "call_bad", name: "run", arguments: { nope: 1 } };
    await runnerOf(journal, [toolCallReply([badRun]), textReply("Done.")], seen).run("Run");
    expect(seen.runs).toEqual([]);
    const finished = journal.records.findIndex((record) => record.type === "execution_finished");
    expect(journal.records[finished]).toMatchObject({ outcome: { executed: "no" } });
    expect(journal.effectFree[finished]).toBe(true);
  });

  it("resumes from any tail a power cut could lose: the history stays paired and the command never runs twice", async () => {
    const { journal } = await wholeRun();
    const runStarted = journal.records.findIndex(
      (record) => record.type === "execution_started" && record.callId === "call_run",
    );
    // A crash after record `crash`: what is on disk is everything durable then, and any part
    // of the effect-free records written after it.
    for (let crash = 0; crash < journal.records.length; crash += 1) {
      const durable = journal.durableAfter[crash] ?? 0;
      // The command's start is never among what a crash after it could lose.
      if (crash >= runStarted) expect(durable).toBeGreaterThan(runStarted);
      for (let kept = Math.max(durable, 1); kept <= crash + 1; kept += 1) {
        const onDisk = journal.records.slice(0, kept);
        const replayed = replayJournal(onDisk);
        const seen: Seen = { runs: [], looks: [] };
        const after = new DurabilityJournal();
        // Whatever is left to do, the model ends the run at its next request.
        const result = await runnerOf(after, [textReply("Done after resume.")], seen).resume(
          replayed.history,
          replayed.openCalls,
        );
        const ranBefore = crash >= runStarted ? 1 : 0;
        expect(
          ranBefore + seen.runs.length,
          `crash after ${String(crash)}, ${String(kept)} kept`,
        ).toBeLessThanOrEqual(1);
        expect(result.finalText).toMatch(/^Done/);
        // Every call in the resumed history has its one result, in order.
        const history = result.history;
        history.forEach((message, index) => {
          if (message.role !== "assistant") return;
          const ids = message.toolCalls.map((call) => call.id);
          const results = history
            .slice(index + 1, index + 1 + ids.length)
            .map((next) => (next.role === "tool" ? next.toolCallId : ""));
          expect(results).toEqual(ids);
        });
      }
    }
  });
});
