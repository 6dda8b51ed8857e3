/**
 * Issue 26: a compaction is journaled, so a run killed right after one (kill -9, by the crash
 * hook) resumes with exactly the compacted history, and goes on to its answer.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { useAgentFixture } from "./agent-fixture.js";
import { linesOf, serverEnv, startCli } from "./cli-process.js";
import { fourKibText, longTaskModel } from "./long-task-model.js";
import type { ChatMessage } from "./scripted-chat-server.js";

const e2e = useAgentFixture();

interface JournalMessage {
  readonly role: string;
  readonly content: string | null;
  readonly toolCallId?: string;
  readonly toolCalls?: readonly { id: string; name: string; arguments: string }[];
}

function agent(args: readonly string[], extra: Record<string, string> = {}) {
  const [first = "", ...rest] = args;
  const argv =
    first === "resume"
      ? [first, "--workspace", e2e.dir.workspace, ...rest]
      : ["--workspace", e2e.dir.workspace, ...args];
  return startCli(argv, {
    env: serverEnv(e2e.server.baseURL, { AGENT_STATE_DIR: join(e2e.dir.root, "state"), ...extra }),
  }).done;
}

async function journalRecords(): Promise<{ type: string; [key: string]: unknown }[]> {
  const workspaces = join(e2e.dir.root, "state", "workspaces");
  const [only = ""] = await readdir(workspaces);
  const runs = join(workspaces, only, "runs");
  const [file = ""] = (await readdir(runs)).filter((name) => name.endsWith(".jsonl"));
  const text = await readFile(join(runs, file), "utf8");
  return linesOf(text).map((line) => JSON.parse(line) as { type: string });
}

/** A journal message in the chat-completions shape the server receives. */
function asChat(message: JournalMessage): ChatMessage {
  switch (message.role) {
    case "tool":
      return {
        role: "tool",
        tool_call_id: message.toolCallId ?? "",
        content: message.content ?? "",
      };
    case "assistant":
      return (message.toolCalls ?? []).length === 0
        ? { role: "assistant", content: message.content ?? "" }
        : {
            role: "assistant",
            content: message.content,
            tool_calls: (message.toolCalls ?? []).map((call) => ({
              id: call.id,
              type: "function" as const,
              function: { name: call.name, arguments: call.arguments },
            })),
          };
    default:
      return { role: message.role as "user" | "system", content: message.content ?? "" };
  }
}

describe("kill -9 after a compaction, then agent resume", () => {
  it("rebuilds exactly the compacted history and finishes the task", async () => {
    const files = ["a.txt", "b.txt", "c.txt"];
    for (const [index, name] of files.entries()) {
      await writeFile(join(e2e.dir.workspace, name), fourKibText(index));
    }
    const model = longTaskModel({ calls: 24, files, windowTokens: 16_384 });
    e2e.server.script(...Array.from({ length: 80 }, () => model.reply));

    const killed = await agent(["--context-window", "16384", "--prompt", "Read the files"], {
      AGENT_TEST_KILL_AFTER_RECORD: "history_compacted",
    });
    expect(killed.signal).toBe("SIGKILL");
    const compaction = (await journalRecords()).at(-1);
    expect(compaction?.type).toBe("history_compacted");
    expect(compaction?.reason).toBe("auto");
    const compacted = (compaction?.messages as JournalMessage[]).map(asChat);
    const before = e2e.server.requests.length;

    const resumed = await agent(["resume", "--context-window", "16384"]);

    expect(resumed.stderr).not.toContain("agent: The");
    expect(resumed.exitCode).toBe(0);
    expect(resumed.stdout).toBe("Read all 24 files.\n");
    const first = e2e.server.requests[before];
    expect(first?.messages).toEqual(compacted);
    // The compacted history: the system message, the task, the summary, then recent turns whole.
    expect(compacted.slice(0, 3).map((message) => message.role)).toEqual([
      "system",
      "user",
      "user",
    ]);
    expect(compacted[1]?.content).toBe("Read the files");
    expect(model.seen.every((request) => !request.refused)).toBe(true);
  }, 60_000);
});

describe("agent resume of a run holding one large write_file", () => {
  // Issue 41: the call did not fit the summary's room whole, and everything was left out.
  it("compacts with a summary that holds the call's head and tail", async () => {
    const content = `HEAD-OF-DATA ${"row of generated data\n".repeat(2_000)}TAIL-OF-DATA`;
    e2e.server.script(
      chatToolCallsReply([
        { id: "w1", name: "write_file", arguments: { path: "data.txt", content } },
      ]),
      chatToolCallsReply([{ id: "g1", name: "glob", arguments: { pattern: "*.txt" } }]),
      chatToolCallsReply([{ id: "g2", name: "glob", arguments: { pattern: "*.md" } }]),
    );
    const killed = await agent(
      ["--chapter", "2", "--context-window", "32768", "--prompt", "Write the data"],
      { AGENT_TEST_KILL_AFTER_RECORD: "execution_finished:3" },
    );
    expect(killed.signal).toBe("SIGKILL");
    e2e.server.script(chatTextReply("The summary."), chatTextReply("Wrote the data."));

    const resumed = await agent(["resume", "--context-window", "8192"]);

    expect(resumed.exitCode).toBe(0);
    expect(resumed.stdout).toBe("Wrote the data.\n");
    expect(resumed.stderr).toMatch(
      /context compacted before the window filled: ~\d+ → ~\d+ tokens/,
    );
    // The scripted server's requests start afresh with its new script: the summary comes first.
    const summary = e2e.server.requests[0]?.messages[1]?.content ?? "";
    expect(summary).toContain('CALL write_file {"path":"data.txt","content":"HEAD-OF-DATA row');
    expect(summary).toContain('row of generated data\\nTAIL-OF-DATA"}');
    expect(summary).not.toContain("left out: too long");
  }, 60_000);
});
