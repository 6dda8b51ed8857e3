/**
 * Issue 41: bytes that are not valid UTF-8 are never lost silently. `read_file` says so in its
 * result; `write_file` refuses to replace such a file unless `read_file` said so of it first.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { useAgentFixture } from "./agent-fixture.js";
import { toolResults } from "./scripted-chat-server.js";

const e2e = useAgentFixture();

const LATIN1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]); // "café\n" in Latin-1
const REFUSED =
  "Error [invalid_utf8_file]: menu.txt holds bytes that are not valid UTF-8, which this write " +
  "would replace; nothing was written. read_file it first (it shows those bytes as U+FFFD): a " +
  "write_file after that replaces the file";
const READ =
  "caf\u{FFFD}\n[menu.txt is not valid UTF-8: the bytes that are not are shown as U+FFFD " +
  "(\u{FFFD}); writing this text back would replace them]";

const write = (id: string) =>
  chatToolCallsReply([
    { id, name: "write_file", arguments: { path: "menu.txt", content: "caf\u{FFFD}\n" } },
  ]);

describe("a file holding bytes that are not valid UTF-8", () => {
  it("write_file without reading it first is refused, and the bytes stay", async () => {
    const path = join(e2e.dir.workspace, "menu.txt");
    await writeFile(path, LATIN1);
    e2e.server.script(write("w1"), chatTextReply("Could not."));
    const run = await e2e.agent(["--chapter", "2", "Fix the menu"]);
    expect(run.exitCode).toBe(0);
    expect(toolResults(e2e.server.requests[1])).toEqual({ w1: REFUSED });
    expect(await readFile(path)).toEqual(LATIN1);
  });

  it("read_file says so; a write_file after that replaces the file", async () => {
    const path = join(e2e.dir.workspace, "menu.txt");
    await writeFile(path, LATIN1);
    e2e.server.script(
      chatToolCallsReply([{ id: "r1", name: "read_file", arguments: { path: "menu.txt" } }]),
      write("w1"),
      chatTextReply("Rewritten."),
    );
    const run = await e2e.agent(["--chapter", "2", "Fix the menu"]);
    expect(run.exitCode).toBe(0);
    expect(toolResults(e2e.server.requests[1])).toEqual({ r1: READ });
    expect(toolResults(e2e.server.requests[2]).w1).toBe("Wrote 7 UTF-8 bytes to menu.txt");
    expect(await readFile(path, "utf8")).toBe("caf\u{FFFD}\n");
  });

  it("a valid UTF-8 file is read and replaced as before, with no note", async () => {
    const path = join(e2e.dir.workspace, "menu.txt");
    await writeFile(path, "café\n");
    e2e.server.script(write("w1"), chatTextReply("Done."));
    const run = await e2e.agent(["--chapter", "2", "Fix the menu"]);
    expect(run.exitCode).toBe(0);
    expect(toolResults(e2e.server.requests[1]).w1).toBe("Wrote 7 UTF-8 bytes to menu.txt");
  });
});
