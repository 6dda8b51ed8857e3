/**
 * MCP servers through the real CLI: the person's settings file names a stdio server written with
 * the SDK (tests/support/mcp-notes-server.ts). Chapter 3 never lists its tools; chapter 4 denies
 * a tool the allowlist does not name, and for one it names waits for an approval, runs it once on
 * `agent approve` + `agent resume` and audits server, tool and operation id; a server that dies
 * mid-call leaves the call unknown and the run goes on.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HAS_BWRAP } from "../support/bubblewrap.js";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { NOTES_SERVER_COMMAND } from "../support/mcp-notes-server.js";
import { useAgentFixture } from "./agent-fixture.js";
import { useMcpNotes } from "./mcp-notes-fixture.js";
import { runCli, serverEnv, type CliRun } from "./cli-process.js";
import { toolNames, toolResults } from "./scripted-chat-server.js";

const e2e = useAgentFixture();
const { watchingSdkLoads } = useMcpNotes(e2e);

function notesLog(): string {
  return join(e2e.dir.root, "notes.log");
}

async function logged(): Promise<string[]> {
  if (!existsSync(notesLog())) return [];
  return (await readFile(notesLog(), "utf8")).split("\n").filter(Boolean);
}

async function settings(allow: string[]): Promise<void> {
  const directory = join(e2e.dir.root, "config", "agent-harness");
  await mkdir(directory, { recursive: true });
  const notes = { ...NOTES_SERVER_COMMAND, env: { NOTES_LOG: notesLog() }, allow };
  await writeFile(join(directory, "settings.json"), JSON.stringify({ mcpServers: { notes } }));
}

function cli(args: readonly string[], extra: Record<string, string> = {}): Promise<CliRun> {
  return runCli([...args, "--workspace", e2e.dir.workspace], {
    env: serverEnv(e2e.server.baseURL, {
      AGENT_STATE_DIR: join(e2e.dir.root, "state"),
      XDG_CONFIG_HOME: join(e2e.dir.root, "config"),
      ...extra,
    }),
  });
}

const call = (id: string, tool: string, args: object) =>
  chatToolCallsReply([{ id, name: `mcp__notes__${tool}`, arguments: args }]);

function match(run: CliRun, pattern: RegExp): string {
  const found = pattern.exec(run.stderr)?.[1];
  if (found === undefined) throw new Error(`${String(pattern)} not in:\n${run.stderr}`);
  return found;
}

describe("MCP servers in the tutorial's chapters", () => {
  it("chapter 3 never lists a configured server's tools, nor loads the SDK", async () => {
    await settings(["write_note"]);
    e2e.server.script(chatTextReply("hi"));
    const watch = await watchingSdkLoads();
    const run = await cli(["--chapter", "3", "--prompt", "hello"], watch.env);
    expect(run.exitCode).toBe(0);
    expect(existsSync(watch.loads)).toBe(false);
    expect(toolNames(e2e.server.requests[0])).toEqual([
      "shell",
      "read_file",
      "write_file",
      "edit_file",
      "glob",
    ]);
  });
});

describe.skipIf(!HAS_BWRAP)("MCP servers in chapter 4", () => {
  it("denies a tool the allowlist does not name: nothing sent, nobody asked", async () => {
    await settings([]);
    e2e.server.script(call("call_1", "write_note", { name: "a", text: "b" }), chatTextReply("ok"));
    // The same watch as chapter 3's, which must see chapter 4 load the SDK for its server.
    const watch = await watchingSdkLoads();
    const run = await cli(["--chapter", "4", "--prompt", "write a note"], watch.env);
    expect(await readFile(watch.loads, "utf8")).toBe("./agent-mcp.cjs\n");
    expect(run.exitCode).toBe(4); // every call was denied
    expect(toolNames(e2e.server.requests[0])).toContain("mcp__notes__write_note");
    expect(toolResults(e2e.server.requests[1]).call_1).toMatch(
      /^Error \[policy_denied\]: network_or_external_effect_not_allowed: mcp__notes__write_note is tool "write_note" of MCP server "notes", which the allowlist does not name/,
    );
    expect(run.stderr).toContain("[Permission] mcp__notes__write_note: deny (p04-policy)");
    expect(await logged()).toEqual([]);
  });

  it("asks for one it names: waits, runs once after agent approve and resume, and the audit names server, tool and operation id", async () => {
    await settings(["write_note"]);
    const audit = join(e2e.dir.root, "audit.jsonl");
    e2e.server.script(call("call_1", "write_note", { name: "a", text: "b" }));
    const first = await cli(["--chapter", "4", "--audit-log", audit, "--prompt", "write a note"]);
    expect(first.exitCode).toBe(3);
    expect(await logged()).toEqual([]);
    const request = match(first, /waiting for approval: request (req_[0-9a-f]{16})/);
    const runId = match(first, /then go on with: agent resume (\d{8}T\d{6}Z-[0-9a-f]{8})\n/);
    expect((await cli(["approve", request])).exitCode).toBe(0);

    // The resumed run answers the waiting call first, then asks the model.
    e2e.server.script(chatTextReply("done"));
    const resumed = await cli(["resume", runId, "--audit-log", audit]);
    expect(resumed.exitCode).toBe(0);
    const lines = await logged();
    expect(lines).toHaveLength(1);
    const operation = /^write a b (op_\S+)$/.exec(lines[0] ?? "")?.[1];
    expect(operation).toBeDefined();
    const outcomes = (await readFile(audit, "utf8"))
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { tool?: string; outcome?: Record<string, unknown> })
      .filter((record) => record.outcome !== undefined && record.tool === "mcp__notes__write_note");
    expect(outcomes.at(-1)?.outcome).toMatchObject({
      executed: "yes",
      status: "ok",
      operationId: operation,
      finalArguments: { mcpServer: "notes", mcpTool: "write_note" },
    });
  });
});
