/**
 * The tutorial's chapters and chapter 4 with the person's MCP server, through the real CLI, for a
 * stdio server and a Streamable HTTP one (127.0.0.1): chapters 1–3 never list its tools; chapter
 * 4 denies its write tool without an allowlist entry; the daily profile with no server loads no
 * SDK. Chapter 3 with a stdio server, and chapter 4 with one, are in mcp.test.ts.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { HAS_BWRAP } from "../support/bubblewrap.js";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { useAgentFixture } from "./agent-fixture.js";
import { useMcpNotes } from "./mcp-notes-fixture.js";
import { toolNames, toolResults } from "./scripted-chat-server.js";

const e2e = useAgentFixture();
const { settings, logged, cli, watchingSdkLoads } = useMcpNotes(e2e);

const writeCall = (id: string) =>
  chatToolCallsReply([{ id, name: "mcp__notes__write_note", arguments: { name: "a", text: "b" } }]);

describe("start-up without servers", () => {
  it("the daily profile with no server configured never loads the SDK; with one it does", async () => {
    e2e.server.script(chatTextReply("hi"));
    const watch = await watchingSdkLoads();
    const bare = await cli(
      ["--profile", "daily", "--sandbox", "off", "--prompt", "hello"],
      watch.env,
    );
    expect(bare.exitCode).toBe(0);
    expect(existsSync(watch.loads)).toBe(false);
    expect(toolNames(e2e.server.requests[0]).filter((name) => name.startsWith("mcp__"))).toEqual(
      [],
    );

    await settings("http");
    e2e.server.script(chatTextReply("hi"));
    const configured = await cli(
      ["--profile", "daily", "--sandbox", "off", "--prompt", "hello"],
      watch.env,
    );
    expect(configured.exitCode).toBe(0);
    expect(await readFile(watch.loads, "utf8")).toBe("./agent-mcp.cjs\n");
  });
});

describe("the tutorial's chapters", () => {
  it.each([
    [1, "stdio"],
    [2, "stdio"],
    [1, "http"],
    [2, "http"],
    [3, "http"],
  ] as const)("chapter %i never lists the tools of a %s server", async (chapter, transport) => {
    await settings(transport, ["write_note"]);
    e2e.server.script(chatTextReply("hi"));
    const run = await cli(["--chapter", String(chapter), "--prompt", "hello"]);
    expect(run.exitCode).toBe(0);
    const tools = toolNames(e2e.server.requests[0]);
    expect(tools[0]).toBe("shell");
    expect(tools.filter((name) => name.startsWith("mcp__"))).toEqual([]);
  });
});

describe.skipIf(!HAS_BWRAP)("chapter 4", () => {
  it("denies the write tool of an http server without an allowlist entry: nothing sent", async () => {
    await settings("http");
    e2e.server.script(writeCall("call_1"), chatTextReply("ok"));
    const run = await cli(["--chapter", "4", "--prompt", "write a note"]);
    expect(toolNames(e2e.server.requests[0])).toContain("mcp__notes__write_note");
    expect(toolResults(e2e.server.requests[1]).call_1).toMatch(
      /^Error \[policy_denied\]: network_or_external_effect_not_allowed: mcp__notes__write_note is tool "write_note" of MCP server "notes", which the allowlist does not name/,
    );
    expect(run.stderr).toContain("[Permission] mcp__notes__write_note: deny (p04-policy)");
    expect(await logged()).toEqual([]);
  });
});
