import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { mcpSlashCommand } from "../../../../src/cli/terminal/input/mcp-command.js";
import {
  SlashCommands,
  type ConversationState,
} from "../../../../src/cli/terminal/input/slash-commands.js";

function run(servers: Parameters<typeof mcpSlashCommand>[0], columns?: number): string {
  let text = "";
  // Written synchronously: what the command wrote is here when it returns.
  const writable = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString("utf8");
      done();
    },
  });
  const output =
    columns === undefined ? writable : Object.assign(writable, { isTTY: true, columns });
  const command = mcpSlashCommand(servers);
  const state: ConversationState = {
    output,
    history: undefined,
    usage: undefined,
    commands: new SlashCommands([command]),
    signal: new AbortController().signal,
  };
  expect(command.run("", state)).toBe("continue");
  return text;
}

describe("/mcp", () => {
  it("lists each server's state now: ready with its tools, stopped or failed with why", () => {
    expect(
      run(() => [
        { name: "notes", transport: "stdio", state: "ready", tools: ["read_note", "write_note"] },
        { name: "one", transport: "stdio", state: "ready", tools: ["ping"] },
        {
          name: "db",
          transport: "http",
          state: "stopped",
          tools: ["query"],
          reason: "the server stopped",
        },
        { name: "gone", transport: "stdio", state: "failed", tools: [], reason: "spawn x ENOENT" },
      ]),
    ).toBe(
      [
        "notes  stdio  ready  2 tools: read_note, write_note",
        "one  stdio  ready  1 tool: ping",
        "db  http  stopped: the server stopped",
        "gone  stdio  failed: spawn x ENOENT",
        "",
      ].join("\n"),
    );
  });

  it("says where servers come from when the run has none", () => {
    expect(run(() => [])).toBe(
      "agent: no MCP servers in this run (chapter 4 and --profile daily start the settings file's mcpServers; chapters 1-3 never do; agent mcp checks them)\n",
    );
  });

  it("on a terminal, breaks a long line between words, its wrapped rows indented", () => {
    const tools = Array.from({ length: 12 }, (_, index) => `tool_number_${String(index)}`);
    const text = run(() => [{ name: "many", transport: "stdio", state: "ready", tools }], 60);
    const rows = text.trimEnd().split("\n");
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) expect(row.length).toBeLessThanOrEqual(60);
    for (const row of rows.slice(1)) expect(row.startsWith(" ")).toBe(true);
    expect(rows.map((row) => row.trim()).join(" ")).toBe(
      `many  stdio  ready  12 tools: ${tools.join(", ")}`,
    );
  });
});
