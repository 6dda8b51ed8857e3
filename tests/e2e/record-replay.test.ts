import { existsSync } from "node:fs";
import { readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { PTY_REASON, isPtyAvailable, runInPty, terminalScreenLines } from "../support/pty.js";
import {
  API_KEY,
  baseEnv,
  linesOf,
  runCli,
  serverEnv,
  stderrLines,
  type CliRun,
} from "./cli-process.js";
import { useAgentFixture } from "./agent-fixture.js";

const exchangeSchema = z.strictObject({
  request: z.strictObject({ messages: z.array(z.unknown()), tools: z.array(z.unknown()) }),
  reply: z.strictObject({
    message: z.unknown(),
    finishReason: z.string(),
    usage: z.unknown().optional(),
  }),
});

const e2e = useAgentFixture();
let recording: string;

beforeEach(() => {
  recording = join(e2e.dir.root, "session.jsonl");
});

function scriptTutorial(): void {
  e2e.server.script(
    chatToolCallsReply([{ id: "call_glob", name: "glob", arguments: { pattern: "*" } }]),
    chatToolCallsReply([
      { id: "call_in", name: "write_file", arguments: { path: "note.txt", content: "hi\n" } },
    ]),
    chatToolCallsReply([
      { id: "call_out", name: "write_file", arguments: { path: "../outside.txt", content: "x" } },
    ]),
    chatTextReply("Done: one write asked, one refused."),
  );
}

function permissionLines(text: string): string[] {
  return linesOf(text).filter((line) => line.startsWith("[Permission] "));
}

async function recordTutorial(): Promise<CliRun> {
  await writeFile(join(e2e.dir.workspace, "README.md"), "# demo\n");
  scriptTutorial();
  return e2e.agent(["--record", recording, "--prompt", "Tutorial"]);
}

/** A replay has no key, no base URL and no server to talk to. */
function replay(prompt: string): Promise<CliRun> {
  return runCli(["--workspace", e2e.dir.workspace, "--replay", recording, "--prompt", prompt], {
    env: baseEnv(),
  });
}

describe("--record", () => {
  it("writes one JSON line per exchange, and never the API key", async () => {
    const run = await recordTutorial();

    expect(run).toMatchObject({ exitCode: 0, stdout: "Done: one write asked, one refused.\n" });
    expect(e2e.server.requests).toHaveLength(4);
    const text = await readFile(recording, "utf8");
    const exchanges = linesOf(text).map((line) => exchangeSchema.parse(JSON.parse(line)));
    expect(exchanges).toHaveLength(4);
    expect(exchanges.map((exchange) => exchange.reply.finishReason)).toEqual([
      "tool_calls",
      "tool_calls",
      "tool_calls",
      "stop",
    ]);
    expect(exchanges.map((exchange) => exchange.request.messages.length)).toEqual([2, 4, 6, 8]);
    expect(text.includes(API_KEY)).toBe(false);
    expect(text.includes("Bearer")).toBe(false);
  });

  it.skipIf(process.platform === "win32")(
    "writes the recording owner-only (POSIX only: Windows has no permission bits)",
    async () => {
      const run = await recordTutorial();

      expect(run.exitCode).toBe(0);
      expect((await stat(recording)).mode & 0o777).toBe(0o600);
    },
  );
});

describe("--replay", () => {
  it("reproduces the answer and the [Permission] lines with no key and no server", async () => {
    const recorded = await recordTutorial();
    const requestsBefore = e2e.server.rawRequests.length;

    const replayed = await replay("Tutorial");

    expect(replayed.exitCode).toBe(0);
    expect(replayed.stdout).toBe(recorded.stdout);
    expect(permissionLines(replayed.stderr)).toEqual(permissionLines(recorded.stderr));
    expect(permissionLines(replayed.stderr)).toEqual([
      "[Permission] glob: allow (default) - No permission rule blocked the request",
      "[Permission] write_file: deny (terminal-approval) - Interactive approval is unavailable (stdin is not a TTY)",
      "[Permission] write_file: deny (workspace-boundary) - Writing outside the workspace is forbidden",
    ]);
    expect(e2e.server.rawRequests).toHaveLength(requestsBefore);
    expect(existsSync(join(e2e.dir.root, "outside.txt"))).toBe(false);
  });

  it("stops with one line when the prompt differs from the recording", async () => {
    await recordTutorial();

    const replayed = await replay("Something else");

    expect(replayed).toMatchObject({ exitCode: 1, signal: null, stdout: "" });
    expect(stderrLines(replayed)).toEqual([
      'agent: Replay diverged at exchange 1: message 1 differs (recorded {"content":"Tutorial","role":"user"}, requested {"content":"Something else","role":"user"})',
    ]);
  });

  it("stops when a tool result differs from the recording, naming the exchange", async () => {
    await recordTutorial();
    await writeFile(join(e2e.dir.workspace, "extra.md"), "new\n");

    const replayed = await replay("Tutorial");

    expect(replayed.exitCode).toBe(1);
    expect(replayed.stdout).toBe("");
    const lines = stderrLines(replayed);
    expect(lines.at(-1)).toBe(
      'agent: Replay diverged at exchange 2: message 3 differs (recorded {"content":"README.md","role":"tool","toolCallId":"call_glob"}, requested {"content":"README.md\\nextra.md","role":"tool","toolCallId":"call_glob"})',
    );
    expect(lines.filter((line) => line.startsWith("agent: "))).toHaveLength(1);
  });

  it("stops with one line when the recording runs out of replies", async () => {
    await recordTutorial();
    const firstTwo = linesOf(await readFile(recording, "utf8")).slice(0, 2);
    await writeFile(recording, `${firstTwo.join("\n")}\n`);

    const replayed = await replay("Tutorial");

    expect(replayed).toMatchObject({ exitCode: 1, stdout: "" });
    const lines = stderrLines(replayed);
    expect(lines.at(-1)).toBe(
      "agent: Replay ran out of replies: request 3 has no recording (the file holds 2)",
    );
    expect(lines.filter((line) => line.startsWith("agent: "))).toHaveLength(1);
  });

  it.skipIf(!isPtyAvailable())(
    `replays an approved write in a terminal: same prompt, same decision, same file ${PTY_REASON}`,
    async () => {
      await writeFile(join(e2e.dir.workspace, "README.md"), "# demo\n");
      const args = (model: string[]) => e2e.argv([...model, "--prompt", "Tutorial"]);
      scriptTutorial();
      const recorded = await runInPty(args(["--record", recording]), {
        env: serverEnv(e2e.server.baseURL),
        prompt: "[y/N] ",
        answers: ["y\r"],
      });
      expect(recorded.exitCode).toBe(0);
      expect(await readFile(join(e2e.dir.workspace, "note.txt"), "utf8")).toBe("hi\n");
      await rm(join(e2e.dir.workspace, "note.txt"));

      const replayed = await runInPty(args(["--replay", recording]), {
        env: baseEnv(),
        prompt: "[y/N] ",
        answers: ["y\r"],
      });

      expect(replayed.exitCode).toBe(0);
      const shown = (output: string) =>
        terminalScreenLines(output).filter(
          (line) =>
            line.startsWith("[Permission] ") ||
            line.startsWith("Tool call needs approval") ||
            line.startsWith("Arguments: ") ||
            line.startsWith("  Done: "),
        );
      expect(shown(replayed.output)).toEqual(shown(recorded.output));
      expect(shown(replayed.output)).toEqual([
        "[Permission] glob: allow (default) - No permission rule blocked the request",
        "Tool call needs approval: write_file",
        'Arguments: {"path":"note.txt","content":"hi\\n"}',
        "[Permission] write_file: allow (terminal-approval) - User approved this tool call",
        "[Permission] write_file: deny (workspace-boundary) - Writing outside the workspace is forbidden",
        "  Done: one write asked, one refused.",
      ]);
      expect(await readFile(join(e2e.dir.workspace, "note.txt"), "utf8")).toBe("hi\n");
    },
  );
});
