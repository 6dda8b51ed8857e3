/**
 * Servers that number tool calls per reply, or repeat an id in one reply: the real CLI gives each
 * repeated id a fresh one, and the next request pairs every result with its own call.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { useAgentFixture } from "./agent-fixture.js";

const e2e = useAgentFixture();

interface SentMessage {
  readonly role: string;
  readonly tool_call_id?: string;
  readonly tool_calls?: readonly { readonly id: string }[];
}

describe("tool-call ids a server repeats", () => {
  it("in one reply and across replies: the run goes on, each result paired with its own call", async () => {
    await writeFile(join(e2e.dir.workspace, "a.txt"), "alpha\n");
    await writeFile(join(e2e.dir.workspace, "b.txt"), "beta\n");
    e2e.server.script(
      chatToolCallsReply([
        { id: "dup", name: "read_file", arguments: { path: "a.txt" } },
        { id: "dup", name: "read_file", arguments: { path: "b.txt" } },
      ]),
      chatToolCallsReply([{ id: "dup", name: "read_file", arguments: { path: "a.txt" } }]),
      chatTextReply("Read both."),
    );
    const run = await e2e.agent(["--chapter", "2", "--prompt", "Read them"]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe("Read both.\n");
    const last = e2e.server.rawRequests.at(-1)?.body as { messages: SentMessage[] } | undefined;
    const messages = last?.messages ?? [];
    const calls = messages.flatMap((message) => (message.tool_calls ?? []).map((call) => call.id));
    const results = messages.flatMap((message) =>
      message.role === "tool" && message.tool_call_id !== undefined ? [message.tool_call_id] : [],
    );
    expect(calls).toEqual(["dup", "dup_2", "dup_3"]);
    expect(results).toEqual(calls);
  });
});
