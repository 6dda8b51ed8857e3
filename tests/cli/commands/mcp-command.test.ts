/**
 * `agent mcp`: the person's MCP servers, each started, said in one line with its state and tools,
 * and stopped. A server that cannot start is one line, never a stack trace.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mcpCommand } from "../../../src/cli/commands/mcp.js";
import { NOTES_SERVER_COMMAND } from "../../support/mcp-notes-server.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/temp-workspace.js";
import { runCapturedSubcommand } from "../../support/captured-subcommand.js";

let temp: TempWorkspace;
beforeEach(async () => {
  temp = await makeTempWorkspace();
});
afterEach(async () => {
  await temp.cleanup();
});

/** The settings file under the test's home: ~/.config/agent-harness/settings.json. */
function settings(value: object): string {
  const directory = join(temp.base, ".config", "agent-harness");
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, "settings.json"), JSON.stringify(value));
  return join(directory, "settings.json");
}

function run() {
  return runCapturedSubcommand(mcpCommand, [], { home: temp.base, cwd: temp.ws });
}

describe("agent mcp", () => {
  it("says there are none when the settings file names none", async () => {
    const path = settings({});
    expect(await run()).toEqual({
      code: 0,
      out: `no MCP servers in ${path} (mcpServers)\n`,
      err: "",
    });
  });

  it("lists each server's state and tools, and one line for one that cannot start", async () => {
    settings({
      mcpServers: {
        notes: { ...NOTES_SERVER_COMMAND, allow: ["write_note"] },
        gone: { command: join(temp.base, "no-such-program") },
      },
    });
    const result = await run();
    expect(result.code).toBe(0);
    const lines = result.out.split("\n");
    expect(lines[0]).toBe(
      "notes  stdio  ready  3 tools: read_note (read-only), write_note, crash_midway · chapter 4 may ask for: write_note",
    );
    expect(lines[1]).toMatch(/^gone {2}stdio {2}failed: \S.*$/);
    expect(lines[2]).toBe(
      'note: MCP server "notes": tool "bad-name" is left out (a tool name is letters, digits and _, 64 characters in all)',
    );
  });
});
