/**
 * The built CLI searches in a worker thread of its own: dist/agent-grep.cjs, found beside the
 * bundle. A search that works here proves the build ships the worker and the bundle finds it.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { useAgentFixture } from "./agent-fixture.js";
import { toolResults } from "./scripted-chat-server.js";

const e2e = useAgentFixture();

describe("grep through the built CLI", () => {
  it("finds lines in its worker and leaves out what .git/info/exclude ignores", async () => {
    await mkdir(join(e2e.dir.workspace, "src"));
    await mkdir(join(e2e.dir.workspace, ".git", "info"), { recursive: true });
    await writeFile(join(e2e.dir.workspace, ".git", "info", "exclude"), "scratch.js\n");
    await writeFile(join(e2e.dir.workspace, "src", "lib.js"), "const answer = 42;\n");
    await writeFile(join(e2e.dir.workspace, "scratch.js"), "const answer = 0;\n");
    e2e.server.script(
      chatToolCallsReply([{ id: "call_grep", name: "grep", arguments: { pattern: "answer" } }]),
      chatTextReply("Found it."),
    );
    const run = await e2e.agent(["--profile", "daily", "--sandbox", "off", "--prompt", "Find it"]);
    expect(run).toMatchObject({ exitCode: 0, stdout: "Found it.\n" });
    expect(toolResults(e2e.server.requests[1])).toEqual({
      call_grep: "src/lib.js:1:const answer = 42;",
    });
  });
});
