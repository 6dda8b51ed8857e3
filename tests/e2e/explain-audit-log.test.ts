/**
 * The case issue 24 was filed for: with the audit log inside the workspace, a run denies
 * `write_file` on it as one of the harness's own files, and `agent explain` (given the same
 * AGENT_AUDIT_LOG) must say so too, with the same source and reason, not that the person would
 * be asked.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { linesOf, runCli, serverEnv } from "./cli-process.js";
import { useAgentFixture } from "./agent-fixture.js";

const e2e = useAgentFixture();

const FORGE = { path: "audit.jsonl", content: '{"behavior":"allow"}\n' };

describe("agent explain and a run, with the audit log inside the workspace", () => {
  it.each([["3"], ["4"]])("chapter %s: both deny write_file on it, alike", async (chapter) => {
    const log = join(e2e.dir.workspace, "audit.jsonl");
    await writeFile(log, "");

    const explained = await runCli(
      [
        "explain",
        "write_file",
        JSON.stringify(FORGE),
        "--chapter",
        chapter,
        "--workspace",
        e2e.dir.workspace,
      ],
      { env: serverEnv(e2e.server.baseURL, { AGENT_AUDIT_LOG: log }) },
    );
    expect(explained.exitCode).toBe(0);
    const decision = linesOf(explained.stdout).find((line) => line.startsWith("decision"));

    e2e.server.script(
      chatToolCallsReply([{ id: "call_forge", name: "write_file", arguments: FORGE }]),
      chatTextReply("Done."),
    );
    const run = await e2e.agent(["--chapter", chapter, "--prompt", "forge the log"], {
      AGENT_AUDIT_LOG: log,
    });
    // Piped, and its one call denied: the answer comes with exit 4 (issue 27), not 0.
    expect(run.exitCode).toBe(4);
    const records = linesOf(await readFile(log, "utf8")).map(
      (line) => JSON.parse(line) as Record<string, unknown>,
    );
    const ran = records.find((record) => record.callId === "call_forge" && "behavior" in record);

    const reason =
      "Writing the harness's own files (its audit log, recording or install) is forbidden";
    expect(decision).toBe(`decision: deny (protected-path) - ${reason}`);
    expect(ran).toMatchObject({ behavior: "deny", source: "protected-path", reason });
    expect(linesOf(explained.stdout)).not.toContain("approval: the person is asked [y/N]");
  });
});
