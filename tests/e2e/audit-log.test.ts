import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { PTY_REASON, isPtyAvailable, runInPty, terminalScreenLines } from "../support/pty.js";
import { linesOf, serverEnv } from "./cli-process.js";
import { useAgentFixture } from "./agent-fixture.js";
import { toolResults } from "./scripted-chat-server.js";

/** The journal's run id (`agent runs` lists it), so an audit line leads to its run. */
const journalRunId = z.string().regex(/^[0-9]{8}T[0-9]{6}Z-[0-9a-f]{8}$/);

const auditRecordSchema = z.strictObject({
  time: z.iso.datetime(),
  runId: journalRunId,
  chapter: z.number(),
  callId: z.string(),
  tool: z.string(),
  behavior: z.string(),
  source: z.string(),
  reason: z.string(),
  scope: z.string(),
  argumentsSha256: z.string(),
});

const e2e = useAgentFixture();
const { agent } = e2e;

/** The decision lines; each call's outcome line (with `outcome`, no `behavior`) follows it. */
async function auditRecords(path: string) {
  return linesOf(await readFile(path, "utf8"))
    .map((line): unknown => JSON.parse(line))
    .filter((record) => typeof record === "object" && record !== null && "behavior" in record)
    .map((record) => auditRecordSchema.parse(record));
}

async function outcomeRecords(path: string) {
  return linesOf(await readFile(path, "utf8"))
    .map((line): unknown => JSON.parse(line))
    .filter((record) => typeof record === "object" && record !== null && "outcome" in record)
    .map((record) => outcomeRecordSchema.parse(record));
}

const outcomeRecordSchema = z.strictObject({
  time: z.iso.datetime(),
  runId: journalRunId,
  callId: z.string(),
  tool: z.string(),
  outcome: z.object({ executed: z.string(), status: z.string(), boundary: z.string() }),
});

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** The three calls of the tutorial, with stdin a pipe so the inside write is denied unasked. */
function scriptTutorial(): void {
  e2e.server.script(
    chatToolCallsReply([{ id: "call_glob", name: "glob", arguments: { pattern: "*.md" } }]),
    chatToolCallsReply([
      // Keys out of order: the hash is of the canonical (sorted) JSON.
      { id: "call_in", name: "write_file", arguments: { path: "note.txt", content: "hi\n" } },
      { id: "call_out", name: "write_file", arguments: { content: "x", path: "../outside.txt" } },
    ]),
    chatTextReply("Done."),
  );
}

describe("the JSON audit log", () => {
  it("--audit-log FILE holds one line per final decision, next to the [Permission] lines", async () => {
    const log = join(e2e.dir.root, "audit.jsonl");
    scriptTutorial();

    const run = await agent(["--audit-log", log, "--prompt", "Tutorial"]);

    expect(run).toMatchObject({ exitCode: 0, stdout: "Done.\n" });
    const records = await auditRecords(log);
    const runId = records[0]?.runId;
    expect(records.map((record) => ({ ...record, time: "(checked by the schema)" }))).toEqual([
      {
        time: "(checked by the schema)",
        runId,
        chapter: 3,
        callId: "call_glob",
        tool: "glob",
        behavior: "allow",
        source: "default",
        reason: "No permission rule blocked the request",
        scope: "this call only",
        argumentsSha256: sha256('{"pattern":"*.md"}'),
      },
      {
        time: "(checked by the schema)",
        runId,
        chapter: 3,
        callId: "call_in",
        tool: "write_file",
        behavior: "deny",
        source: "terminal-approval",
        reason: "Interactive approval is unavailable (stdin is not a TTY)",
        scope: "this call only",
        argumentsSha256: sha256('{"content":"hi\\n","path":"note.txt"}'),
      },
      {
        time: "(checked by the schema)",
        runId,
        chapter: 3,
        callId: "call_out",
        tool: "write_file",
        behavior: "deny",
        source: "workspace-boundary",
        reason: "Writing outside the workspace is forbidden",
        scope: "this call only",
        argumentsSha256: sha256('{"content":"x","path":"../outside.txt"}'),
      },
    ]);
    // After each call, its outcome: did it run, how did it end, which boundary decided.
    const outcomes = await outcomeRecords(log);
    expect(outcomes.map(({ callId, runId: id, outcome }) => [callId, id, outcome])).toEqual([
      ["call_glob", runId, { executed: "yes", status: "ok", boundary: "execution" }],
      ["call_in", runId, { executed: "no", status: "denied", boundary: "confirmation" }],
      ["call_out", runId, { executed: "no", status: "denied", boundary: "policy" }],
    ]);
    const lines = linesOf(await readFile(log, "utf8")).map(
      (line) => (JSON.parse(line) as { callId: string }).callId,
    );
    expect(lines).toEqual(["call_glob", "call_glob", "call_in", "call_in", "call_out", "call_out"]);
    const stderr = linesOf(run.stderr);
    expect(stderr.filter((line) => line.startsWith("[Permission] "))).toEqual([
      "[Permission] glob: allow (default) - No permission rule blocked the request",
      "[Permission] write_file: deny (terminal-approval) - Interactive approval is unavailable (stdin is not a TTY)",
      "[Permission] write_file: deny (workspace-boundary) - Writing outside the workspace is forbidden",
    ]);
  });

  it("AGENT_AUDIT_LOG appends, one run id per run", async () => {
    const log = join(e2e.dir.root, "audit.jsonl");
    await writeFile(log, "");
    scriptTutorial();
    await agent(["--prompt", "Tutorial"], { AGENT_AUDIT_LOG: log });
    scriptTutorial();
    await agent(["--chapter", "3", "--prompt", "Tutorial"], { AGENT_AUDIT_LOG: log });

    const records = await auditRecords(log);

    expect(records.map((record) => record.callId)).toEqual([
      "call_glob",
      "call_in",
      "call_out",
      "call_glob",
      "call_in",
      "call_out",
    ]);
    const runIds = records.map((record) => record.runId);
    expect(new Set(runIds.slice(0, 3)).size).toBe(1);
    expect(new Set(runIds.slice(3)).size).toBe(1);
    expect(runIds[0]).not.toBe(runIds[3]);
  });

  it("is written and flushed before the handler runs: a read of the log sees its own line", async () => {
    // The log lies inside the workspace, so read_file (allowed without asking) can read it.
    e2e.server.script(
      chatToolCallsReply([
        { id: "call_self", name: "read_file", arguments: { path: "audit.jsonl" } },
      ]),
      chatTextReply("Read it."),
    );

    const run = await agent([
      "--audit-log",
      join(e2e.dir.workspace, "audit.jsonl"),
      "--prompt",
      "Read",
    ]);

    expect(run.exitCode).toBe(0);
    const seenByHandler = toolResults(e2e.server.requests[1]).call_self ?? "";
    const lines = linesOf(seenByHandler).map((line) => auditRecordSchema.parse(JSON.parse(line)));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ callId: "call_self", tool: "read_file", behavior: "allow" });
  });
});

// The log is opened once, at start (see harness-files.test.ts): a path that cannot be opened stops
// the run with exit 2 before the first request, so no call can run unrecorded. A write that fails
// mid-run still fails the decision closed (tests/adapters/audit/jsonl-audit-log.test.ts).
describe("an audit log that cannot be opened stops the run before any call", () => {
  it("a path under a regular file: exit 2, one line, no request, no [Permission] line", async () => {
    await writeFile(join(e2e.dir.root, "not-a-directory"), "");
    const log = join(e2e.dir.root, "not-a-directory", "audit.jsonl");
    e2e.server.script(
      chatToolCallsReply([{ id: "call_glob", name: "glob", arguments: { pattern: "*" } }]),
      chatTextReply("Could not look."),
    );

    const run = await agent(["--audit-log", log, "--prompt", "Look"]);

    expect(run).toMatchObject({ exitCode: 2, stdout: "" });
    expect(linesOf(run.stderr)).toEqual([
      `agent: Cannot open the audit log ${log}: ENOTDIR: not a directory, open '${log}'`,
    ]);
    expect(e2e.server.requests).toEqual([]);
    expect(existsSync(log)).toBe(false);
  });

  it.skipIf(!isPtyAvailable())(
    `a write is never put to the person nor made ${PTY_REASON}`,
    async () => {
      await writeFile(join(e2e.dir.root, "not-a-directory"), "");
      const log = join(e2e.dir.root, "not-a-directory", "audit.jsonl");
      e2e.server.script(
        chatToolCallsReply([
          { id: "call_w", name: "write_file", arguments: { path: "note.txt", content: "hi\n" } },
        ]),
        chatTextReply("Could not write."),
      );

      const { exitCode, output } = await runInPty(
        e2e.argv(["--audit-log", log, "--prompt", "Write"]),
        { env: serverEnv(e2e.server.baseURL), prompt: "[y/N] ", answers: [] },
      );

      expect(exitCode).toBe(2);
      expect(output).not.toContain("[y/N]");
      expect(terminalScreenLines(output)).toContain(
        `agent: Cannot open the audit log ${log}: ENOTDIR: not a directory, open '${log}'`,
      );
      expect(e2e.server.requests).toEqual([]);
      expect(existsSync(join(e2e.dir.workspace, "note.txt"))).toBe(false);
      expect(existsSync(log)).toBe(false);
    },
  );
});
