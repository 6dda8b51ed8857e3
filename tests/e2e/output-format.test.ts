/**
 * `--output-format json` and `stream-json` (docs/output-format.md): what a script reads on stdout,
 * and exit 4 when every call of a run that answered was denied.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { useAgentFixture } from "./agent-fixture.js";
import { runCli, serverEnv } from "./cli-process.js";

const e2e = useAgentFixture();

describe("--output-format", () => {
  it("json: one object on stdout that `node -e JSON.parse` reads", async () => {
    e2e.server.script(
      chatToolCallsReply([{ id: "g1", name: "glob", arguments: { pattern: "*.md" } }]),
      chatTextReply("No notes here."),
    );
    const run = await e2e.agent(["--output-format", "json", "Find the notes"]);
    expect(run.exitCode).toBe(0);
    const parsed = spawnSync(
      process.execPath,
      [
        "-e",
        "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log(JSON.parse(s).answer))",
      ],
      { input: run.stdout, encoding: "utf8" },
    );
    expect(parsed.stdout).toBe("No notes here.\n");
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({
      type: "result",
      status: "completed",
      exitCode: 0,
      answer: "No notes here.",
      error: null,
      turns: 2,
      calls: [{ callId: "g1", tool: "glob", executed: "yes", status: "ok" }],
      waiting: null,
    });
    expect(result.runId).toMatch(/\S/);
  });

  it("stream-json: one JSON line per event, the result last", async () => {
    e2e.server.script(chatTextReply("Hi."));
    const run = await e2e.agent(["--output-format", "stream-json", "Say hi"]);
    expect(run.exitCode).toBe(0);
    const events = run.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string });
    expect(events.map((event) => event.type)).toEqual(["model_request", "model_reply", "result"]);
    expect(events.at(-1)).toMatchObject({ status: "completed", answer: "Hi." });
  });

  it("json: a failed run still prints its object, with the error and exit code", async () => {
    const run = await e2e.agent(["--output-format", "json", "--max-turns", "1", "Loop"], {});
    // The scripted server has no reply for this request: the provider fails.
    expect(run.exitCode).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: "failed", exitCode: 1, answer: null });
  });

  it("a piped run whose every call was denied says so and exits 4", async () => {
    e2e.server.script(
      chatToolCallsReply([{ id: "s1", name: "shell", arguments: { command: "true" } }]),
      chatTextReply("I could not run it."),
    );
    const run = await e2e.agent(["--output-format", "json", "Run true"]);
    expect(run.exitCode).toBe(4);
    expect(run.stderr).toContain("1 call: 1 denied · every call was denied");
    expect(JSON.parse(run.stdout)).toMatchObject({
      status: "all_denied",
      exitCode: 4,
      answer: "I could not run it.",
      calls: [{ callId: "s1", status: "denied" }],
    });
    // Nobody was asked, so there is no time spent waiting for a person.
    expect((JSON.parse(run.stdout) as { calls: object[] }).calls[0]).not.toHaveProperty("waitedMs");
  });

  it("needs a task", async () => {
    const run = await e2e.agent(["--output-format", "json"]);
    expect(run).toMatchObject({
      exitCode: 2,
      stdout: "",
      stderr: 'agent: --output-format json needs a task: agent --output-format json "<task>"\n',
    });
  });

  it("agent runs --json and agent approvals --json print one JSON array", async () => {
    e2e.server.script(chatTextReply("Hi."));
    const run = await e2e.agent(["--output-format", "json", "Say hi"]);
    const { runId } = JSON.parse(run.stdout) as { runId: string };
    const env = { env: serverEnv(e2e.server.baseURL) };
    const runs = await runCli(["runs", "--json", "--workspace", e2e.dir.workspace], env);
    expect(runs.exitCode).toBe(0);
    expect(JSON.parse(runs.stdout)).toMatchObject([
      { runId, status: "completed", prompt: "Say hi" },
    ]);
    const approvals = await runCli(["approvals", "--json", "--workspace", e2e.dir.workspace], env);
    expect(approvals).toMatchObject({ exitCode: 0, stdout: "[]\n" });
  });
});
