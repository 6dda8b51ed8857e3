/**
 * Issue 17's full loop through the real CLI: a chapter-4 run waits (exit 3, nothing started), the
 * person answers with `agent approve`, and `agent resume` goes on with THAT run: the waiting call
 * takes the normal tool path again, consumes the grant, and runs once in the sandbox.
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveExecutable } from "../../src/adapters/shell/index.js";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { useAgentFixture } from "./agent-fixture.js";
import { runCli, serverEnv, startCli, type CliRun } from "./cli-process.js";
import { toolResults } from "./scripted-chat-server.js";

const e2e = useAgentFixture();
const HAS_BWRAP =
  process.platform === "linux" &&
  resolveExecutable("bwrap", { env: process.env, workspace: "/nonexistent", platform: "linux" }) !==
    undefined;

/** `npm test` and `npm run lint` each append a line to their own marker file. */
const PACKAGE_JSON = {
  name: "p04-resume",
  private: true,
  scripts: {
    test: "node -e \"require('fs').appendFileSync('marker.txt', 'ran\\n')\"",
    lint: "node -e \"require('fs').appendFileSync('lint.txt', 'ran\\n')\"",
  },
};

function env(): Record<string, string> {
  return { AGENT_STATE_DIR: join(e2e.dir.root, "state") };
}

function cli(args: readonly string[]): Promise<CliRun> {
  return runCli([...args, "--workspace", e2e.dir.workspace], {
    env: serverEnv(e2e.server.baseURL, env()),
  });
}

function commandCall(id: string, args: readonly string[] = ["test"]) {
  return chatToolCallsReply([{ id, name: "run_command", arguments: { command: "npm", args } }]);
}

async function ran(file = "marker.txt"): Promise<number> {
  const path = join(e2e.dir.workspace, file);
  if (!existsSync(path)) return 0;
  return (await readFile(path, "utf8")).split("\n").filter((line) => line === "ran").length;
}

/** The first run: it waits. Returns the request id and the run id the message names. */
async function waitingRun(): Promise<{ requestId: string; runId: string }> {
  await writeFile(join(e2e.dir.workspace, "package.json"), JSON.stringify(PACKAGE_JSON));
  e2e.server.script(commandCall("call_a"));
  const first = await cli(["--chapter", "4", "--prompt", "run the tests"]);
  expect(first.exitCode).toBe(3);
  expect(await ran()).toBe(0);
  const requestId = /waiting for approval: request (req_[0-9a-f]{16})/.exec(first.stderr)?.[1];
  const runId = /then go on with: agent resume (\S+)/.exec(first.stderr)?.[1];
  if (requestId === undefined || runId === undefined) {
    throw new Error(`no request or run id in:\n${first.stderr}`);
  }
  return { requestId, runId };
}

describe.skipIf(!HAS_BWRAP)("P04: wait, approve, resume", () => {
  it("resume runs the approved call once in the sandbox and finishes; a second resume runs nothing", async () => {
    const { requestId, runId } = await waitingRun();
    const listed = await cli(["runs"]);
    expect(listed.stdout).toContain(runId);
    expect(listed.stdout).toMatch(new RegExp(`${runId}.*waiting`));

    expect((await cli(["approve", requestId])).exitCode).toBe(0);
    e2e.server.script(chatTextReply("Tests ran."));
    const resumed = await cli(["resume"]);
    expect(resumed.stderr).toContain(`resuming run ${runId} (waiting)`);
    expect(resumed.stderr).toContain(
      `[Permission] run_command: allow (approval-grant) - Approved: grant for request ${requestId} consumed (one-time)`,
    );
    expect(resumed.exitCode).toBe(0);
    expect(resumed.stdout).toBe("Tests ran.\n");
    expect(await ran()).toBe(1);
    // The model got the same call's result, paired to its id, in the same conversation.
    const after = e2e.server.requests.at(-1);
    expect(toolResults(after).call_a).toContain("> node -e");
    expect(after?.messages.filter((message) => message.role === "user")).toHaveLength(1);

    const again = await cli(["resume", runId]);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toBe(`agent: run ${runId} already completed; nothing to resume\n`);
    expect(await ran()).toBe(1);
  }, 90_000);

  it("changed arguments after the resume make a new request; the grant covers only its own action", async () => {
    const { requestId } = await waitingRun();
    expect((await cli(["approve", requestId])).exitCode).toBe(0);
    // Resumed, the model goes on to ask for `npm run lint`: another action, so it waits again.
    e2e.server.script(commandCall("call_b", ["run", "lint"]));
    const resumed = await cli(["resume"]);
    expect(resumed.exitCode).toBe(3);
    expect(await ran()).toBe(1);
    expect(await ran("lint.txt")).toBe(0);
    const second = /waiting for approval: request (req_[0-9a-f]{16})/.exec(resumed.stderr)?.[1];
    expect(second).toBeDefined();
    expect(second).not.toBe(requestId);
  }, 90_000);

  it("an expired grant is refused on resume: the call waits again, nothing runs", async () => {
    const { requestId } = await waitingRun();
    expect((await cli(["approve", requestId, "--ttl", "1s"])).exitCode).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const resumed = await cli(["resume"]);
    expect(resumed.exitCode).toBe(3);
    expect(resumed.stderr).toMatch(/waiting for approval: request req_[0-9a-f]{16}/);
    expect(resumed.stderr).not.toContain(`request ${requestId} (nothing ran)`);
    expect(await ran()).toBe(0);
  }, 90_000);

  it("two concurrent resumes of one approved run: the command runs once", async () => {
    const { requestId, runId } = await waitingRun();
    expect((await cli(["approve", requestId])).exitCode).toBe(0);
    e2e.server.script(chatTextReply("Tests ran."), chatTextReply("Tests ran."));
    const start = () =>
      startCli(["resume", runId, "--workspace", e2e.dir.workspace], {
        env: serverEnv(e2e.server.baseURL, env()),
      }).done;
    const results = await Promise.all([start(), start()]);
    expect(await ran()).toBe(1);
    const codes = results.map((run) => run.exitCode).sort();
    // One goes on to the answer; the other finds the run taken (or already finished).
    expect(codes).toEqual([0, 2]);
  }, 90_000);
});
