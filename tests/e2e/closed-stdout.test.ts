/**
 * `agent "…" | head -1`, `agent runs 2>&1 | head`: the reader goes away before the output is
 * written. The harness stops quietly, as `git log | head` does, not with an EPIPE stack trace. A
 * closed stderr stops a run (nobody would see its approval prompt) with exit 141, as a shell
 * reports a command a closed pipe ended; a command that only prints ends with its own code.
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

/** `2>&1 | head -1` once head has gone: stdout and stderr both fail every write. */
async function withOutputClosed(args: readonly string[]): Promise<CliRun> {
  const started = startCli([...args, "--workspace", e2e.dir.workspace], {
    env: serverEnv(e2e.server.baseURL),
  });
  started.child.stdout.destroy();
  started.child.stderr.destroy();
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

describe("a reader that closes stderr too (2>&1 | head -1)", () => {
  for (const argv of [
    ["runs"],
    ["approvals"],
    ["commands"],
    ["explain", "shell", '{"command":"ls"}'],
    ["runs", "--help"],
    ["--help"],
  ]) {
    it(`agent ${argv.join(" ")} ends with exit 0`, async () => {
      const run = await withOutputClosed(argv);
      expect(run).toMatchObject({ exitCode: 0, signal: null });
    });
  }

  it("a mistake on the command line still ends with exit 2", async () => {
    const run = await withOutputClosed(["runs", "--bogus"]);
    expect(run).toMatchObject({ exitCode: 2, signal: null });
  });

  it("a run stops with exit 141", async () => {
    e2e.server.script(chatTextReply("never read"));
    const run = await withOutputClosed(["--prompt", "hello"]);
    expect(run).toMatchObject({ exitCode: 141, signal: null });
  });
});
