import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { linesOf } from "./cli-process.js";
import { useAgentFixture } from "./agent-fixture.js";
import { pairingProblems, toolNames, toolResults } from "./scripted-chat-server.js";

const FIVE_TOOLS = ["shell", "read_file", "write_file", "edit_file", "glob"];

const e2e = useAgentFixture();
const { agent } = e2e;

describe("what the model receives (chapter 3, the default)", () => {
  it("offers the five tools, pairs every call with its result and passes results verbatim", async () => {
    await writeFile(join(e2e.dir.workspace, "a.txt"), "alpha\nbeta\n");
    await mkdir(join(e2e.dir.workspace, "sub"));
    await writeFile(join(e2e.dir.workspace, "sub", "b.txt"), "bee");
    e2e.server.script(
      chatToolCallsReply([
        { id: "call_glob", name: "glob", arguments: { pattern: "**/*.txt" } },
        { id: "call_read", name: "read_file", arguments: { path: "a.txt" } },
      ]),
      chatToolCallsReply([
        { id: "call_out", name: "write_file", arguments: { path: "../outside.txt", content: "x" } },
      ]),
      chatTextReply("Found two files."),
    );

    const run = await agent(["--prompt", "List the text files"]);

    expect(run).toMatchObject({ exitCode: 0, stdout: "Found two files.\n" });
    const requests = e2e.server.requests;
    expect(requests).toHaveLength(3);
    for (const request of requests) {
      expect(toolNames(request)).toEqual(FIVE_TOOLS);
      expect(pairingProblems(request.messages)).toEqual([]);
    }
    expect(requests[0]?.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(requests[0]?.messages[1]).toEqual({ role: "user", content: "List the text files" });
    expect(requests[2]?.messages.map((m) => m.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "tool",
      "assistant",
      "tool",
    ]);
    expect(requests[2]?.messages[2]).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [
        {
          id: "call_glob",
          type: "function",
          function: { name: "glob", arguments: '{"pattern":"**/*.txt"}' },
        },
        {
          id: "call_read",
          type: "function",
          function: { name: "read_file", arguments: '{"path":"a.txt"}' },
        },
      ],
    });
    expect(toolResults(requests[1])).toEqual({
      call_glob: "a.txt\nsub/b.txt",
      call_read: "alpha\nbeta\n",
    });
    expect(toolResults(requests[2])).toEqual({
      call_glob: "a.txt\nsub/b.txt",
      call_read: "alpha\nbeta\n",
      call_out: "Error [permission_denied]: Writing outside the workspace is forbidden",
    });
    expect(existsSync(join(e2e.dir.root, "outside.txt"))).toBe(false);
    expect(linesOf(run.stderr)).toContain(
      "[Permission] write_file: deny (workspace-boundary) - Writing outside the workspace is forbidden",
    );
  });

  it("sends each tool's strict JSON schema", async () => {
    e2e.server.script(chatTextReply("Nothing to do."));

    const run = await agent(["--prompt", "Say hi"]);

    expect(run.exitCode).toBe(0);
    const tools = e2e.server.requests[0]?.tools ?? [];
    const byName = new Map(tools.map((tool) => [tool.function.name, tool.function.parameters]));
    expect(byName.get("shell")).toMatchObject({
      type: "object",
      required: ["command"],
      additionalProperties: false,
    });
    expect(byName.get("read_file")).toMatchObject({
      type: "object",
      required: ["path"],
      additionalProperties: false,
    });
    expect(byName.get("write_file")).toMatchObject({
      type: "object",
      required: ["path", "content"],
      additionalProperties: false,
    });
    expect(byName.get("edit_file")).toMatchObject({
      type: "object",
      required: ["path", "old_string", "new_string"],
      additionalProperties: false,
    });
    expect(byName.get("glob")).toMatchObject({
      type: "object",
      required: ["pattern"],
      additionalProperties: false,
    });
  });
});

describe("earlier chapters", () => {
  it("chapter 2 refuses ../outside.txt in the handler with path_escape and writes inside without asking", async () => {
    e2e.server.script(
      chatToolCallsReply([
        {
          id: "call_in",
          name: "write_file",
          arguments: { path: "note.txt", content: "hello, world\n" },
        },
      ]),
      chatToolCallsReply([
        { id: "call_out", name: "write_file", arguments: { path: "../outside.txt", content: "x" } },
      ]),
      chatTextReply("Wrote the note."),
    );

    const run = await agent(["--chapter", "2", "--prompt", "Write a note"]);

    expect(run).toMatchObject({ exitCode: 0, stdout: "Wrote the note.\n" });
    const requests = e2e.server.requests;
    expect(requests).toHaveLength(3);
    for (const request of requests) {
      expect(toolNames(request)).toEqual(FIVE_TOOLS);
      expect(pairingProblems(request.messages)).toEqual([]);
    }
    expect(toolResults(requests[2])).toEqual({
      call_in: "Wrote 13 UTF-8 bytes to note.txt",
      call_out: "Error [path_escape]: path must not contain parent segments: ../outside.txt",
    });
    expect(await readFile(join(e2e.dir.workspace, "note.txt"), "utf8")).toBe("hello, world\n");
    expect(existsSync(join(e2e.dir.root, "outside.txt"))).toBe(false);
    expect(run.stderr).not.toContain("Tool call needs approval");
  });

  it("chapter 1 offers only the shell, and a file tool the model invents is unknown", async () => {
    e2e.server.script(
      chatToolCallsReply([
        { id: "call_w", name: "write_file", arguments: { path: "note.txt", content: "x" } },
      ]),
      chatTextReply("Only a shell here."),
    );

    const run = await agent(["--chapter", "1", "--prompt", "Write a note"]);

    expect(run).toMatchObject({ exitCode: 0, stdout: "Only a shell here.\n" });
    const requests = e2e.server.requests;
    expect(requests.map(toolNames)).toEqual([["shell"], ["shell"]]);
    expect(toolResults(requests[1])).toEqual({
      call_w: "Error [unknown_tool]: Unknown tool: write_file (available tools: shell)",
    });
    expect(existsSync(join(e2e.dir.workspace, "note.txt"))).toBe(false);
  });
});
