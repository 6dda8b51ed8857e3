/**
 * A hostile model cannot end a run by sending more than its journal can keep: a 60 MiB write_file
 * is refused with arguments_too_large, paired with its call id, the run goes on to its answer, and
 * the journal stays small.
 */
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { useAgentFixture } from "./agent-fixture.js";
import { serverEnv, startCli } from "./cli-process.js";

const e2e = useAgentFixture();

describe("a 60 MiB tool argument", () => {
  it("is refused for its size, the run goes on, and the journal stays small", async () => {
    const args = JSON.stringify({ path: "big.txt", content: "x".repeat(60 * 1024 * 1024) });
    e2e.server.script(
      chatToolCallsReply([{ id: "call_big", name: "write_file", arguments: args }]),
      chatTextReply("Done."),
    );
    const state = join(e2e.dir.root, "state");

    const run = await startCli(
      ["--workspace", e2e.dir.workspace, "--chapter", "2", "--prompt", "Write it"],
      { env: serverEnv(e2e.server.baseURL, { AGENT_STATE_DIR: state }) },
    ).done;

    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe("Done.\n");
    const second = e2e.server.requests[1];
    expect(second?.messages.at(-2)).toMatchObject({
      role: "assistant",
      tool_calls: [
        {
          id: "call_big",
          function: { name: "write_file", arguments: `{"omitted_bytes":${String(args.length)}}` },
        },
      ],
    });
    expect(second?.messages.at(-1)).toEqual({
      role: "tool",
      tool_call_id: "call_big",
      content:
        `Error [arguments_too_large]: Arguments for write_file are ${String(args.length)} bytes, ` +
        "over the 8388608-byte limit; nothing was run. Split the work into smaller calls",
    });
    await expect(stat(join(e2e.dir.workspace, "big.txt"))).rejects.toThrow();
    const workspaces = join(state, "workspaces");
    const [only = ""] = await readdir(workspaces);
    const runs = join(workspaces, only, "runs");
    const journals = (await readdir(runs)).filter((name) => name.endsWith(".jsonl"));
    expect(journals).toHaveLength(1);
    expect((await stat(join(runs, journals[0] ?? ""))).size).toBeLessThan(64 * 1024);
  }, 60_000);
});
