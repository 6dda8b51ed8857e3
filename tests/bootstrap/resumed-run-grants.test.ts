/**
 * A run grant (`a` at `[y/N/a]`) through the run's real journal file: `agent resume` of the same
 * run holds it again, bound to the exact action it was granted for; a revoked one is not held
 * again, and its revocation is in the audit log; another run's journal holds none of them.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { JsonlAuditLog } from "../../src/adapters/audit/index.js";
import {
  FileRunJournal,
  readJournalFile,
  runsDirectory,
} from "../../src/adapters/journal/index.js";
import { runGrantJournal } from "../../src/bootstrap/run-grant-journal.js";
import { replayJournal } from "../../src/core/journal/journal-replay.js";
import { PermissionRequest } from "../../src/core/policy/permission-request.js";
import { RunGrants, type RunGrant } from "../../src/core/policy/run-grants.js";
import { preparedCall } from "../support/prepared-calls.js";
import { makeTempWorkspace, type TempWorkspace } from "../support/workspace.js";

const RUN = "20261130T234000Z-0a0b0c0d";
const OTHER_RUN = "20261130T235000Z-1a1b1c1d";
const context = (runId: string) => ({
  runId,
  chapter: 3,
  profile: "daily",
  model: "test-model",
  workspace: "/ws",
  policy: "test",
  sandbox: "auto",
  network: false,
});
const NOW = (): Date => new Date("2026-11-30T23:40:00.000Z");

let dir: TempWorkspace;
beforeEach(async () => {
  dir = await makeTempWorkspace("agent-run-grants-");
});
afterEach(() => dir.cleanup());

const shell = (command: string) =>
  new PermissionRequest(preparedCall("shell", "execute", { command }));

/** What `npm test` runs, as the harness binds it: its script's text, read at each decision. */
const script = { text: "ava" };
const grantsOf = (run: { runGrants: RunGrant[] | readonly RunGrant[]; runGrantsIssued: number }) =>
  new RunGrants({
    workspace: "/ws",
    boundScript: (request) =>
      request.call.arguments.command === "npm test" ? script.text : undefined,
    restored: run.runGrants,
    issued: run.runGrantsIssued,
  });

function replayed(runId: string) {
  return replayJournal(readJournalFile(join(runsDirectory(dir.outside), `${runId}.jsonl`)).records);
}

describe("run grants and agent resume", () => {
  it("the same run holds its grants again, each for exactly its action; a revoked one never", async () => {
    const path = join(runsDirectory(dir.outside), `${RUN}.jsonl`);
    const journal = FileRunJournal.open(path, context(RUN), NOW);
    const auditPath = join(dir.outside, "audit.jsonl");
    const audit = new JsonlAuditLog({ path: auditPath, chapter: 3, runId: RUN, now: NOW });
    await journal.append({ type: "run_started", prompt: "fix it" });
    const observer = runGrantJournal(journal, audit);
    const grants = new RunGrants({
      workspace: "/ws",
      boundScript: (request) =>
        request.call.arguments.command === "npm test" ? script.text : undefined,
      observer,
    });
    await grants.grant(shell("npm test"));
    await grants.grant(shell("git status"));
    expect(await grants.revoke(2)).toBe(true);
    journal.close();
    audit.close();

    const resumed = grantsOf(replayed(RUN));
    expect(resumed.covers(shell("npm test"))).toBe(true);
    expect(resumed.covers(shell("git status"))).toBe(false);
    expect(resumed.list().map((grant) => grant.id)).toEqual([1]);
    // Bound to the action as granted: the same words running another script ask again.
    script.text = "ava --update-snapshots";
    expect(resumed.covers(shell("npm test"))).toBe(false);
    script.text = "ava";
    // A new grant after the resume takes the next number, never a revoked one's.
    expect((await resumed.grant(shell("ls")))?.id).toBe(3);

    // The revocation is audited: one line naming the grant and its action's hash.
    const lines = readFileSync(auditPath, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as unknown);
    expect(lines).toEqual([
      {
        time: "2026-11-30T23:40:00.000Z",
        runId: RUN,
        tool: "shell",
        revoked: {
          grant: 2,
          source: "run-grant",
          argumentsSha256: createHash("sha256").update('{"command":"git status"}').digest("hex"),
        },
      },
    ]);
  });

  it("another run never sees them", async () => {
    const mine = FileRunJournal.open(
      join(runsDirectory(dir.outside), `${RUN}.jsonl`),
      context(RUN),
      NOW,
    );
    await mine.append({ type: "run_started", prompt: "fix it" });
    const audit = new JsonlAuditLog({
      path: join(dir.outside, "audit.jsonl"),
      chapter: 3,
      runId: RUN,
    });
    const grants = new RunGrants({ workspace: "/ws", observer: runGrantJournal(mine, audit) });
    await grants.grant(shell("npm test"));
    mine.close();
    audit.close();
    const other = FileRunJournal.open(
      join(runsDirectory(dir.outside), `${OTHER_RUN}.jsonl`),
      context(OTHER_RUN),
      NOW,
    );
    await other.append({ type: "run_started", prompt: "something else" });
    other.close();
    expect(replayed(RUN).runGrants).toHaveLength(1);
    expect(replayed(OTHER_RUN).runGrants).toEqual([]);
    expect(grantsOf(replayed(OTHER_RUN)).covers(shell("npm test"))).toBe(false);
  });
});
