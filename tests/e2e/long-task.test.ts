/**
 * Issue 26 end to end: a task far longer than the model's window finishes. 150 reads of a 4 KiB
 * file against a server that refuses anything over 16k tokens: the history is compacted before
 * it fills, so at most one request is refused and every later one fits; the default turn limit
 * lets a 100-call task finish. A provider's context error compacts and retries once whether it
 * comes as an HTTP error or inside a stream that had begun.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  chatErrorReply,
  chatTextReply,
  chatToolCallsReply,
  chunkBody,
  type HttpReply,
  type RecordedRequest,
} from "../support/chat-completions-server.js";
import { useAgentFixture } from "./agent-fixture.js";
import { runCli, serverEnv } from "./cli-process.js";
import { fourKibText, isSummaryRequest, longTaskModel } from "./long-task-model.js";

const e2e = useAgentFixture();

const FILES = Array.from({ length: 10 }, (_, index) => `f${String(index)}.txt`);

async function writeFiles(): Promise<void> {
  for (const [index, name] of FILES.entries()) {
    await writeFile(join(e2e.dir.workspace, name), fourKibText(index));
  }
}

describe("a long task in a small window", () => {
  it("150 reads of 4 KiB against a 16k-token window: exit 0, at most one refusal, every later request fits", async () => {
    await writeFiles();
    const model = longTaskModel({ calls: 150, files: FILES, windowTokens: 16_384 });
    e2e.server.script(...Array.from({ length: 400 }, () => model.reply));

    const run = await e2e.agent(["--context-window", "16384", "--prompt", "Read every file"]);

    expect(run.stderr).not.toContain("agent: The");
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe("Read all 150 files.\n");
    expect(model.callsAsked()).toBe(150);
    const refused = model.seen.findIndex((request) => request.refused);
    expect(model.seen.filter((request) => request.refused).length).toBeLessThanOrEqual(1);
    if (refused !== -1) expect(model.seen.slice(refused + 1).every((r) => !r.refused)).toBe(true);
    // It did compact, with summary requests, and every request fits the window.
    expect(model.seen.some((request) => request.summary)).toBe(true);
    expect(Math.max(...model.seen.map((request) => request.tokens))).toBeLessThanOrEqual(16_384);
  }, 60_000);

  it("the default turn limit lets a 100-call task finish", async () => {
    await writeFiles();
    const model = longTaskModel({ calls: 100, files: FILES, windowTokens: 1_000_000 });
    e2e.server.script(...Array.from({ length: 200 }, () => model.reply));

    const run = await e2e.agent(["--prompt", "Read every file"]);

    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe("Read all 100 files.\n");
    expect(model.callsAsked()).toBe(100);
  }, 60_000);
});

describe("the ends of a long task", () => {
  it("a turn limit names the resume that goes on, and that resume finishes with a fresh budget", async () => {
    await writeFiles();
    const model = longTaskModel({ calls: 4, files: FILES, windowTokens: 1_000_000 });
    e2e.server.script(...Array.from({ length: 10 }, () => model.reply));

    const limited = await e2e.agent(["--max-turns", "3", "--prompt", "Read four files"]);

    expect(limited.exitCode).toBe(1);
    // The command the line names, as it names it: the same budget again.
    const command =
      /to go on: agent (resume \S+ --max-turns 3) \(a fresh budget of 3 turns\)$/.exec(
        limited.stderr.trim(),
      )?.[1];
    expect(command).toBeDefined();
    const resumed = await runCli(
      [...(command ?? "").split(" "), "--workspace", e2e.dir.workspace],
      { env: serverEnv(e2e.server.baseURL) },
    );
    expect(resumed.exitCode).toBe(0);
    expect(resumed.stdout).toBe("Read all 4 files.\n");
  }, 30_000);

  it("a request still too long after compaction ends the run with exit 1 and one clear line, no loop", async () => {
    e2e.server.script(
      ...Array.from({ length: 5 }, () =>
        chatErrorReply(400, "the request exceeds the available context size, try increasing it", {
          type: "exceed_context_size_error",
        }),
      ),
    );

    const run = await e2e.agent(["--prompt", "Hello"]);

    expect(run.exitCode).toBe(1);
    expect(run.stderr.trim().split("\n").at(-1)).toBe(
      "agent: The conversation does not fit the model's context window even after compaction (window 1047576 tokens; --context-window sets it): The model provider rejected the request (HTTP 400): the request exceeds the available context size, try increasing it",
    );
    // Nothing older to summarize: no summary request, no retry of the same request.
    expect(e2e.server.requests).toHaveLength(1);
  });
});

const OVERFLOW = {
  message:
    "This model's maximum context length is 16384 tokens. However, your messages resulted in 20000 tokens.",
  type: "invalid_request_error",
  param: "messages",
  code: "context_length_exceeded",
};

describe("a provider's context error, however it arrives", () => {
  it.each<[string, HttpReply]>([
    ["as an HTTP 400", chatErrorReply(400, OVERFLOW.message, { code: OVERFLOW.code })],
    [
      "inside a stream, after data:",
      {
        events: [
          { data: chunkBody({ role: "assistant", content: "" }) },
          { data: { error: OVERFLOW } },
        ],
        done: false,
      },
    ],
    [
      "as an SSE error event",
      {
        events: [
          { data: chunkBody({ role: "assistant", content: "" }) },
          { event: "error", data: { error: OVERFLOW } },
        ],
        done: false,
      },
    ],
  ])("%s: one compaction, one retry, and the run finishes", async (_name, refusal) => {
    await writeFiles();
    // Three reads, then the fourth request is refused once; the summary and the retry answer.
    const kinds: string[] = [];
    let reads = 0;
    const reply = (request: RecordedRequest): HttpReply => {
      if (isSummaryRequest(request.body)) {
        kinds.push("summary");
        return chatTextReply("Read three files; all were fine.");
      }
      if (reads < 3) {
        kinds.push("turn");
        reads += 1;
        return chatToolCallsReply([
          { id: `call_${String(reads)}`, name: "read_file", arguments: { path: FILES[reads] } },
        ]);
      }
      if (!kinds.includes("refused")) {
        kinds.push("refused");
        return refusal;
      }
      kinds.push("turn");
      return chatTextReply("Read all three.");
    };
    e2e.server.script(...Array.from({ length: 8 }, () => reply));

    const run = await e2e.agent(["--prompt", "Read three files"]);

    expect(run.stderr).not.toContain("agent: The");
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe("Read all three.\n");
    expect(kinds).toEqual(["turn", "turn", "turn", "refused", "summary", "turn"]);
    const [refused, retried] = [e2e.server.rawRequests[3], e2e.server.rawRequests[5]];
    expect(retried?.rawBody).toContain("Read three files; all were fine.");
    expect(retried?.rawBody.length).toBeLessThan(refused?.rawBody.length ?? 0);
  });
});
