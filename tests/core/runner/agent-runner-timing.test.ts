/**
 * Honest timings: a call's `durationMs` is how long it took, not how long the person took to
 * answer its prompt; that wait is kept apart as `waitedMs`. The person's three seconds are a
 * step of an injected clock, taken while the approver answers; `true` really runs.
 */
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PosixShellRunner } from "../../../src/adapters/shell/posix-shell.js";
import type { JournalRecord, RunJournal } from "../../../src/core/journal/journal-records.js";
import { PermissionDecision } from "../../../src/core/policy/permission-decision.js";
import { PermissionPolicy } from "../../../src/core/policy/permissions.js";
import { AgentRunner } from "../../../src/core/runner/agent-runner.js";
import type { ToolOutcome } from "../../../src/core/tools/tool-outcome.js";
import { ToolRegistry } from "../../../src/core/tools/tool-registry.js";
import { createShellTool } from "../../../src/features/shell-tool.js";
import { RecordingApprover, allowEveryCall } from "../../support/permission-fakes.js";
import { ScriptedModelClient, textReply, toolCallReply } from "../../support/scripted-model.js";

let workspace: string;

beforeEach(async () => {
  workspace = await mkdtemp(join(await realpath(tmpdir()), "timing-"));
});

afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const PERSON_MS = 3000;

/** A model that asks for `true` once and then answers, and the shell tool that really runs it. */
function oneShellCall(): { model: ScriptedModelClient; registry: ToolRegistry } {
  return {
    model: new ScriptedModelClient([
      toolCallReply([{ id: "t1", name: "shell", arguments: { command: "true" } }]),
      textReply("Done."),
    ]),
    registry: new ToolRegistry([
      createShellTool({
        runner: new PosixShellRunner({
          executable: "/bin/sh",
          kind: "sh",
          environment: { PATH: "/usr/bin:/bin" },
          killTree: { kind: "process-group" },
        }),
        workspace,
      }),
    ]),
  };
}

describe.skipIf(process.platform === "win32")("AgentRunner: how long a call took", () => {
  it("approving `true` after 3 s at the prompt records under 1 s, and the 3 s as waitedMs", async () => {
    // The real clock, plus the time the person is said to have spent at the prompt.
    let skew = 0;
    const now = (): number => Date.now() + skew;
    const approver = new RecordingApprover((request) => {
      request.askingPerson();
      skew += PERSON_MS;
      return PermissionDecision.allow("User approved this tool call", "terminal-approval");
    });
    const journal: JournalRecord[] = [];
    const audited: ToolOutcome[] = [];
    const shown: number[] = [];
    const runner = new AgentRunner({
      ...oneShellCall(),
      policy: new PermissionPolicy({ approval: approver }),
      maxTurns: 3,
      now,
      outcomes: { recordOutcome: (outcome) => void audited.push(outcome) },
      journal: {
        append: (record) => {
          journal.push(record);
          return Promise.resolve();
        },
      } satisfies RunJournal,
      observer: { onToolCallEnd: (_call, _result, durationMs) => void shown.push(durationMs) },
    });

    const result = await runner.run("run true");

    expect(approver.requests).toHaveLength(1);
    const [outcome] = result.outcomes;
    expect(outcome).toMatchObject({ status: "ok", exitCode: 0 });
    expect(outcome?.durationMs).toBeLessThan(1000);
    // The real clock runs on beside the injected step: at least the person's time, not much more.
    expect(outcome?.waitedMs).toBeGreaterThanOrEqual(PERSON_MS);
    expect(outcome?.waitedMs).toBeLessThan(PERSON_MS + 1000);
    // The ✓ line, the audit log and the journal all carry the same honest figure.
    expect(shown).toEqual([outcome?.durationMs]);
    expect(audited).toEqual([outcome]);
    const finished = journal.find((record) => record.type === "execution_finished");
    expect(finished).toMatchObject({
      outcome: { durationMs: outcome?.durationMs, waitedMs: outcome?.waitedMs },
    });
  });

  it("a call denied without asking anyone (a piped or script run) has no waitedMs", async () => {
    // The approver takes its time, as a slow audit would, but puts no question to a person.
    let clock = 0;
    const approver = new RecordingApprover(() => {
      clock += 20;
      return PermissionDecision.deny(
        "Interactive approval is unavailable (stdin is not a TTY)",
        "terminal-approval",
      );
    });
    const runner = new AgentRunner({
      ...oneShellCall(),
      policy: new PermissionPolicy({ approval: approver }),
      maxTurns: 3,
      now: () => clock,
    });
    const [outcome] = (await runner.run("run true")).outcomes;
    expect(approver.requests).toHaveLength(1);
    expect(outcome?.status).toBe("denied");
    expect(outcome).not.toHaveProperty("waitedMs");
  });

  it("a call nobody was asked about has no waitedMs", async () => {
    const runner = new AgentRunner({ policy: allowEveryCall(), ...oneShellCall(), maxTurns: 3 });
    const [outcome] = (await runner.run("run true")).outcomes;
    expect(outcome?.status).toBe("ok");
    expect(outcome).not.toHaveProperty("waitedMs");
  });
});
