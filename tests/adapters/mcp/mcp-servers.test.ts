import { readFileSync, realpathSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  startMcpServers,
  type StartedMcpServers,
  type StdioPlace,
} from "../../../src/adapters/mcp/index.js";
import { ToolRegistry } from "../../../src/core/tools/tool-registry.js";
import { NOTES_SERVER_COMMAND, notesServer } from "../../support/mcp-notes-server.js";
import { scratchDirectories } from "../../support/scratch-directories.js";
const TOKEN = "tok-secret-1234567";

const opened: StartedMcpServers[] = [];
const httpServers: Server[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((servers) => servers.close()));
  for (const server of httpServers.splice(0)) server.close();
});

const scratch = scratchDirectories("mcp-");
function workspace(): string {
  return realpathSync(scratch());
}
/** Servers start in a folder of their own, never the workspace (stdio-launch.ts). */
function place(): StdioPlace {
  return { workspace: workspace(), startDirectory: workspace(), platform: process.platform };
}

async function startNotes(
  hostEnv: Record<string, string | undefined> = { HOST_TOKEN: TOKEN },
): Promise<{ started: StartedMcpServers; log: string }> {
  const dir = workspace();
  const log = join(dir, "notes.log");
  const started = await startMcpServers(
    {
      notes: {
        ...NOTES_SERVER_COMMAND,
        env: { NOTES_LOG: log, NOTES_TOKEN: { fromEnv: "HOST_TOKEN" } },
      },
    },
    { hostEnv, stdio: { ...place(), startDirectory: dir } },
  );
  opened.push(started);
  return { started, log };
}

/** One server for the tests that neither stop it nor change what it is given. */
let shared: Promise<{ started: StartedMcpServers; log: string }> | undefined;
afterAll(async () => {
  await (await shared)?.started.close();
});
function sharedNotes(): Promise<{ started: StartedMcpServers; log: string }> {
  shared ??= startNotes().then((notes) => {
    opened.splice(opened.indexOf(notes.started), 1);
    return notes;
  });
  return shared;
}

function callOf(started: StartedMcpServers, name: string, args: object) {
  const tool = started.tools.find((listed) => listed.definition.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  const registry = new ToolRegistry([tool.definition]).snapshot();
  return registry.prepare({ id: "call_1", name, arguments: JSON.stringify(args) });
}

function loggedLines(log: string): string[] {
  try {
    return readFileSync(log, "utf8").split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

describe("MCP servers over stdio", () => {
  it("lists a server's tools as mcp__<server>__<tool>, read-only as read, the rest external, and leaves out a name the model cannot take", async () => {
    const { started } = await sharedNotes();
    expect(started.states).toEqual([
      {
        name: "notes",
        transport: "stdio",
        state: "ready",
        tools: ["read_note", "write_note", "crash_midway"],
      },
    ]);
    expect(started.tools.map(({ definition }) => [definition.name, definition.effect])).toEqual([
      ["mcp__notes__read_note", "read"],
      ["mcp__notes__write_note", "external"],
      ["mcp__notes__crash_midway", "external"],
    ]);
    expect(started.notes).toEqual([
      'MCP server "notes": tool "bad-name" is left out (a tool name is letters, digits and _, 64 characters in all)',
    ]);
    expect(started.tools[1]?.definition.parameters).toMatchObject({
      type: "object",
      required: ["name", "text"],
      additionalProperties: false,
    });
  });

  it("checks arguments strictly in prepare: a field the tool does not declare is refused", async () => {
    const { started } = await sharedNotes();
    const prepared = callOf(started, "mcp__notes__write_note", { name: "a", text: "b", extra: 1 });
    expect(prepared.ok).toBe(false);
    if (!prepared.ok) {
      expect(prepared.result.content).toBe(
        "Error [invalid_arguments]: Invalid arguments for mcp__notes__write_note: extra: unexpected field",
      );
    }
  });

  it("gives the result as text, an image summarised and the server's secret redacted; the audit's arguments name server and tool", async () => {
    const { started } = await sharedNotes();
    const prepared = callOf(started, "mcp__notes__read_note", { name: "todo" });
    if (!prepared.ok) throw new Error(prepared.result.content);
    expect(prepared.call.finalArguments).toEqual({
      mcpServer: "notes",
      mcpTool: "read_note",
      mcpArguments: '{"name":"todo"}',
    });
    const result = await prepared.call.execute({ idempotencyKey: "op_1" });
    expect(result).toEqual({
      content: "note todo: token [redacted]\n[image image/png, 70 bytes, not shown]",
      isError: false,
    });
  });

  it("sends the external operation id with the call", async () => {
    const { started, log } = await sharedNotes();
    const prepared = callOf(started, "mcp__notes__write_note", { name: "a", text: "b" });
    if (!prepared.ok) throw new Error(prepared.result.content);
    const facts: object[] = [];
    const result = await prepared.call.execute({
      idempotencyKey: "op_42",
      reportExecution: (reported) => facts.push(reported),
    });
    expect(result).toEqual({ content: "wrote a", isError: false });
    expect(loggedLines(log)).toEqual(["write a b op_42"]);
    expect(facts).toEqual([{ operationId: "op_42" }]);
  });

  it("a server that dies mid-call: execution_unknown; the next call is not sent", async () => {
    const { started, log } = await startNotes();
    const crash = callOf(started, "mcp__notes__crash_midway", {});
    if (!crash.ok) throw new Error(crash.result.content);
    const result = await crash.call.execute({ idempotencyKey: "op_7" });
    expect(result.errorCode).toBe("execution_unknown");
    expect(result.content).toMatch(
      /^Error \[execution_unknown\]: MCP server "notes" did not answer the call \(.*\): it was sent, so it may or may not have taken effect; check before calling it again \(operation op_7\)$/,
    );
    const next = callOf(started, "mcp__notes__write_note", { name: "a", text: "b" });
    if (!next.ok) throw new Error(next.result.content);
    const after = await next.call.execute({});
    expect(after.errorCode).toBe("external_unavailable");
    expect(after.content).toMatch(
      /^Error \[external_unavailable\]: MCP server "notes" is not running \(the server stopped; stderr: notes server starting\); the call was not sent$/,
    );
    expect(loggedLines(log)).toEqual(["crash_midway started"]);
    expect(started.statesNow()).toMatchObject([
      {
        name: "notes",
        state: "stopped",
        reason: "the server stopped; stderr: notes server starting",
      },
    ]);
  });

  it("a server that cannot start is one line, and its tools are left out", async () => {
    const program = join(workspace(), "no-such-program");
    const started = await startMcpServers(
      { gone: { command: program } },
      { hostEnv: {}, stdio: place() },
    );
    opened.push(started);
    expect(started.tools).toEqual([]);
    expect(started.states).toMatchObject([{ name: "gone", state: "failed" }]);
    expect(started.notes).toEqual([
      `MCP server "gone" is unavailable (its command "${program}" is not an executable file); its tools are not offered in this run`,
    ]);
  });

  it("a secret that the shortening of a failure line would cut in two is redacted first: no part of it is shown", async () => {
    // The last stderr line is kept to 200 characters; the secret starts at the 198th.
    const say = `process.stderr.write("x".repeat(190) + " token " + process.env.T + "\\n"); process.exit(1)`;
    const started = await startMcpServers(
      {
        loud: {
          command: process.execPath,
          args: ["-e", say],
          env: { T: { fromEnv: "HOST_TOKEN" } },
        },
      },
      { hostEnv: { HOST_TOKEN: TOKEN }, stdio: place() },
    );
    opened.push(started);
    const [note] = started.notes;
    expect(note).toMatch(/^MCP server "loud" is unavailable \(.+\); its tools are not offered/);
    expect(note).toContain("token [r");
    expect(note).not.toContain(TOKEN.slice(0, 4));
  });

  it("a secret named from an unset host variable fails the server, naming the variable, never a value", async () => {
    const { started } = await startNotes({});
    expect(started.notes).toEqual([
      'MCP server "notes" is unavailable (env NOTES_TOKEN is read from the host variable HOST_TOKEN, which is not set); its tools are not offered in this run',
    ]);
  });
});

describe("MCP servers over Streamable HTTP (127.0.0.1 only)", () => {
  async function listen(token: string): Promise<string> {
    const server = createServer((request, response) => {
      if (request.headers.authorization !== `Bearer ${token}`) {
        response.writeHead(401).end("no");
        return;
      }
      // Stateless: one server and transport per request, as the SDK's example does.
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      const mcp = notesServer({ NOTES_TOKEN: token });
      response.on("close", () => void transport.close());
      void mcp.connect(transport).then(() => transport.handleRequest(request, response));
    });
    httpServers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  }

  it("sends the header from a named host variable and redacts it from results", async () => {
    const url = await listen(TOKEN);
    const started = await startMcpServers(
      { remote: { url, headers: { Authorization: { fromEnv: "HOST_AUTH" } } } },
      { hostEnv: { HOST_AUTH: `Bearer ${TOKEN}` }, stdio: place() },
    );
    opened.push(started);
    expect(started.states).toMatchObject([{ name: "remote", transport: "http", state: "ready" }]);
    const prepared = callOf(started, "mcp__remote__read_note", { name: "x" });
    if (!prepared.ok) throw new Error(prepared.result.content);
    const result = await prepared.call.execute({});
    // The server echoes the token it was sent: the token is redacted, with or without its scheme.
    expect(result).toEqual({
      content: "note x: token [redacted]\n[image image/png, 70 bytes, not shown]",
      isError: false,
    });
  });

  it("a refused connection is one line with no secret in it", async () => {
    const url = await listen("another-token");
    const started = await startMcpServers(
      { remote: { url, headers: { Authorization: `Bearer ${TOKEN}` } } },
      { hostEnv: {}, stdio: place() },
    );
    opened.push(started);
    expect(started.states).toMatchObject([{ name: "remote", state: "failed" }]);
    expect(started.notes[0]).not.toContain(TOKEN);
  });
});
