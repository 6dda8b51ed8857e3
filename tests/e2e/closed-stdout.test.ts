/**
 * `agent "…" | head -1`, `agent runs | head`: the reader goes away before the output is written.
 * The harness stops quietly, as `git log | head` does, not with an EPIPE stack trace.
 */
import { describe, expect, it } from "vitest";
import { chatTextReply } from "../support/chat-completions-server.js";
import { useAgentFixture } from "./agent-fixture.js";
import { serverEnv, startCli, stderrLines, type CliRun } from "./cli-process.js";

const e2e = useAgentFixture();

/** Runs the CLI with its stdout pipe closed at once, so every write to it fails with EPIPE. */
async function withStdoutClosed(args: readonly string[]): Promise<CliRun> {
  const started = startCli([...args, "--workspace", e2e.dir.workspace], {
    env: serverEnv(e2e.server.baseURL),
  });
  started.child.stdout.destroy();
  return started.done;
}

function expectNoStackTrace(run: CliRun): void {
  const lines = stderrLines(run);
  expect(lines.filter((line) => /EPIPE|^\s+at |Unhandled/.test(line))).toEqual([]);
}

describe("a reader that closes stdout early", () => {
  it("a long final answer: the run ends with its own exit code, no stack trace", async () => {
    e2e.server.script(chatTextReply(`${"answer line\n".repeat(200_000)}end`));
    const run = await withStdoutClosed(["--prompt", "write a lot"]);
    expectNoStackTrace(run);
    expect(run.exitCode).toBe(0);
    expect(stderrLines(run).at(-1)).toMatch(/^done in 1 turn/);
  });

  it("agent runs: the listing stops quietly", async () => {
    e2e.server.script(chatTextReply("first"), chatTextReply("second"));
    await withStdoutClosed(["--prompt", "one"]);
    await withStdoutClosed(["--prompt", "two"]);
    const run = await withStdoutClosed(["runs"]);
    expect(run).toMatchObject({ exitCode: 0, stderr: "" });
  });

  it("--help stops quietly", async () => {
    const run = await withStdoutClosed(["--help"]);
    expect(run).toMatchObject({ exitCode: 0, stderr: "" });
  });
});
