/**
 * The daily profile with the person's MCP server, through the real CLI in a pseudo-terminal, for a
 * stdio server and a Streamable HTTP one (127.0.0.1), both the test server written with the SDK:
 * it asks `[y/N/a]` for the write tool, runs it on `y` (the server saw it) and audits it, sends
 * nothing on `n`. A stdio server that dies mid-call ends the call `execution_unknown` and the run
 * goes on; a run killed mid-call is resumed without calling again.
 */
import { join } from "node:path";
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { PTY_REASON, PtySession, isPtyAvailable, terminalScreenLines } from "../support/pty.js";
import { useAgentFixture } from "./agent-fixture.js";
import { MCP_TRANSPORTS, useMcpNotes } from "./mcp-notes-fixture.js";
import { toolNames, toolResults } from "./scripted-chat-server.js";

const e2e = useAgentFixture();
const { settings, logged, env, cli } = useMcpNotes(e2e);

const writeCall = (id: string) =>
  chatToolCallsReply([{ id, name: "mcp__notes__write_note", arguments: { name: "a", text: "b" } }]);

/** The daily profile in a terminal: answers each `[y/N/a]` in turn, then waits for the end. */
async function dailyInTerminal(
  answers: readonly string[],
  extra: { audit?: string; env?: Record<string, string> } = {},
) {
  const session = PtySession.start(
    e2e.argv([
      "--profile",
      "daily",
      "--sandbox",
      "off",
      ...(extra.audit === undefined ? [] : ["--audit-log", extra.audit]),
      "--prompt",
      "write a note",
    ]),
    { env: env(extra.env) },
  );
  try {
    for (const answer of answers) {
      await session.waitForOutput("Allow this call? [y/N/a] ");
      session.type(answer);
    }
  } catch (error) {
    session.kill();
    await session.exited.catch(() => undefined);
    throw error;
  }
  const result = await session.exited;
  return { ...result, screen: terminalScreenLines(result.output) };
}

async function auditRecords(path: string): Promise<Record<string, unknown>[]> {
  return (await readFile(path, "utf8"))
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe.skipIf(!isPtyAvailable())(`the daily profile in a terminal ${PTY_REASON}`, () => {
  describe.each(MCP_TRANSPORTS)("a %s server", (transport) => {
    it("lists its tools, asks for the write tool, runs it on y and audits server, tool, arguments and operation id", async () => {
      await settings(transport);
      const audit = join(e2e.dir.root, "audit.jsonl");
      e2e.server.script(writeCall("call_1"), chatTextReply("Wrote it."));
      const run = await dailyInTerminal(["y\r"], { audit });
      expect(run.exitCode).toBe(0);
      expect(toolNames(e2e.server.requests[0])).toEqual([
        "shell",
        "read_file",
        "write_file",
        "edit_file",
        "glob",
        "grep",
        "mcp__notes__read_note",
        "mcp__notes__write_note",
        "mcp__notes__crash_midway",
      ]);
      expect(run.screen).toContainEqual(expect.stringContaining("mcp__notes__write_note"));
      expect(toolResults(e2e.server.requests[1])).toEqual({ call_1: "wrote a" });

      // The server saw the call once, under the operation id the audit names.
      const lines = await logged();
      expect(lines).toHaveLength(1);
      const operation = /^write a b (op_\S+)$/.exec(lines[0] ?? "")?.[1];
      expect(operation).toMatch(/^op_/);
      const records = await auditRecords(audit);
      expect(records.filter((record) => record.tool === "mcp__notes__write_note")).toMatchObject([
        {
          behavior: "allow",
          source: "terminal-approval",
          finalArguments: {
            mcpServer: "notes",
            mcpTool: "write_note",
            mcpArguments: '{"name":"a","text":"b"}',
          },
        },
        { outcome: { executed: "yes", status: "ok", operationId: operation } },
      ]);
    });

    it("on n the server never sees the call, and the model is told it was denied", async () => {
      await settings(transport);
      e2e.server.script(writeCall("call_1"), chatTextReply("Not written."));
      const run = await dailyInTerminal(["n\r"]);
      expect(run.exitCode).toBe(0);
      expect(toolResults(e2e.server.requests[1]).call_1).toMatch(
        /^Error \[permission_denied\]: User denied this tool call/,
      );
      expect(await logged()).toEqual([]);
    });
  });

  it("a stdio server that dies mid-call: execution_unknown, and the run goes on", async () => {
    await settings("stdio");
    e2e.server.script(
      chatToolCallsReply([{ id: "call_1", name: "mcp__notes__crash_midway", arguments: {} }]),
      chatTextReply("The server died."),
    );
    const run = await dailyInTerminal(["y\r"]);
    expect(run.exitCode).toBe(0);
    expect(run.screen).toContain("  The server died.");
    expect(toolResults(e2e.server.requests[1]).call_1).toMatch(
      /^Error \[execution_unknown\]: MCP server "notes" did not answer the call/,
    );
    expect(await logged()).toEqual(["crash_midway started"]);
  });

  it("a run killed after the call started is resumed without calling it again", async () => {
    await settings("stdio");
    e2e.server.script(writeCall("call_1"));
    const killed = await dailyInTerminal(["y\r"], {
      env: { AGENT_TEST_KILL_AFTER_RECORD: "execution_started" },
    });
    expect(killed.exitCode).not.toBe(0);

    e2e.server.script(chatTextReply("Checked."));
    const resumed = await cli(["resume"]);
    expect(resumed.exitCode).toBe(0);
    expect(resumed.stdout).toBe("Checked.\n");
    expect(toolResults(e2e.server.requests[0]).call_1).toMatch(
      /^Error \[execution_unknown\]: The agent stopped while this call was running/,
    );
    expect(await logged()).toEqual([]);
  });
});
