/**
 * Group flushes end to end (docs/run-journal.md): a read's records are written at once and flushed
 * together, so a power cut may lose them, and only them. The real CLI is killed with SIGKILL after
 * a read that follows a write; the journal is then cut back to what a power cut could have left
 * (the write's records whole, any part of the read's), and `agent resume` must answer every call
 * once, in order, and never write again.
 */
import { readdir, readFile, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  chatTextReply,
  chatToolCallsReply,
  type RecordedRequest,
} from "../support/chat-completions-server.js";
import { useAgentFixture } from "./agent-fixture.js";
import { linesOf, serverEnv, startCli } from "./cli-process.js";
import { pairingProblems, toolResults } from "./scripted-chat-server.js";

const e2e = useAgentFixture();

const WRITE_CALL = {
  id: "call_write",
  name: "write_file",
  arguments: { path: "note.txt", content: "n\n" },
};
const GLOB_CALL = { id: "call_glob", name: "glob", arguments: { pattern: "*.txt" } };

/** A write first, then a glob, then the answer, by what the conversation holds. */
function replyByState(request: RecordedRequest) {
  const body = request.body as { messages: { role: string; tool_call_id?: string }[] };
  const last = body.messages.at(-1);
  if (last?.role === "user") return chatToolCallsReply([WRITE_CALL]);
  if (last?.tool_call_id === "call_write") return chatToolCallsReply([GLOB_CALL]);
  return chatTextReply("Done.");
}

function agent(args: readonly string[], extra: Record<string, string> = {}) {
  const [first = "", ...rest] = args;
  const argv =
    first === "resume"
      ? [first, "--workspace", e2e.dir.workspace, ...rest]
      : ["--workspace", e2e.dir.workspace, ...args];
  return startCli(argv, {
    env: serverEnv(e2e.server.baseURL, {
      AGENT_STATE_DIR: join(e2e.dir.root, "state"),
      ...extra,
    }),
  }).done;
}

async function journalFile(): Promise<string> {
  const workspaces = join(e2e.dir.root, "state", "workspaces");
  const [only = ""] = await readdir(workspaces);
  const runs = join(workspaces, only, "runs");
  const names = (await readdir(runs)).filter((name) => name.endsWith(".jsonl"));
  expect(names).toHaveLength(1);
  return join(runs, names[0] ?? "");
}

describe("a power cut that loses a read's records after a write", () => {
  // How many of the glob's five records (model_reply … execution_finished) the cut leaves.
  it.each([0, 1, 2, 3, 4, 5])(
    "with %i of them kept, resume answers each call once and never writes again",
    async (kept) => {
      await writeFile(join(e2e.dir.workspace, "a.txt"), "a\n");
      e2e.server.script(...Array.from({ length: 8 }, () => replyByState));
      const killed = await agent(["--chapter", "2", "--prompt", "Write a note, then list"], {
        AGENT_TEST_KILL_AFTER_RECORD: "execution_finished:2",
      });
      expect(killed.signal).toBe("SIGKILL");

      const path = await journalFile();
      const lines = linesOf(await readFile(path, "utf8"));
      const types = lines.map((line) => (JSON.parse(line) as { type: string }).type);
      const writeEnd = types.indexOf("execution_finished");
      expect(types.slice(writeEnd + 1)).toEqual([
        "model_reply",
        "call_prepared",
        "decision",
        "execution_started",
        "execution_finished",
      ]);
      // Kept whole up to `kept`, the rest lost.
      const keep = lines.slice(0, writeEnd + 1 + kept);
      const bytes = Buffer.byteLength(keep.map((line) => `${line}\n`).join(""), "utf8");
      await truncate(path, bytes);
      await writeFile(join(e2e.dir.workspace, "note.txt"), "changed by the person\n");
      const requestsBefore = e2e.server.requests.length;

      const resumed = await agent(["resume"]);

      expect(resumed.exitCode, resumed.stderr).toBe(0);
      expect(resumed.stdout).toBe("Done.\n");
      const last = e2e.server.requests.at(-1);
      expect(pairingProblems(last?.messages ?? [])).toEqual([]);
      const results = toolResults(last);
      expect(Object.keys(results)).toEqual(["call_write", "call_glob"]);
      expect(results.call_write).toContain("note.txt");
      expect(results.call_glob).toBe("a.txt\nnote.txt");
      // The write ran once, in the killed process: what the person put there since is kept.
      expect(await readFile(join(e2e.dir.workspace, "note.txt"), "utf8")).toBe(
        "changed by the person\n",
      );
      const after = linesOf(await readFile(path, "utf8")).map(
        (line) => JSON.parse(line) as { type: string; callId?: string },
      );
      expect(
        after.filter(
          (record) => record.type === "execution_started" && record.callId === "call_write",
        ),
      ).toHaveLength(1);
      expect(after.at(-1)?.type).toBe("run_finished");
      // The model is asked again only when the glob's reply was lost with its records.
      expect(e2e.server.requests.length - requestsBefore).toBe(kept === 0 ? 2 : 1);
    },
    30_000,
  );
});
