/**
 * Issue 41 item 6 through the built CLI, on a terminal: the line under a failed command names
 * the summary of the runners people use (ava, node:test, bun, deno, …), and a command with no
 * summary shows the tail of its stdout too, not only its stderr.
 */
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { PTY_REASON, isPtyAvailable, runInPty, terminalScreenLines } from "../support/pty.js";
import { serverEnv } from "./cli-process.js";
import { useAgentFixture } from "./agent-fixture.js";

const e2e = useAgentFixture();

async function screenAfter(command: string): Promise<string[]> {
  e2e.server.script(
    chatToolCallsReply([{ id: "call_1", name: "shell", arguments: { command } }]),
    chatTextReply("Seen."),
  );
  const run = await runInPty(e2e.argv(["--sandbox", "off", "--prompt", "Run the tests"]), {
    env: serverEnv(e2e.server.baseURL),
    prompt: "[y/N] ",
    answers: ["y\r"],
  });
  expect(run.exitCode).toBe(0);
  return terminalScreenLines(run.output);
}

describe.skipIf(!isPtyAvailable())(`a failed test run's lines ${PTY_REASON}`, () => {
  it.each([
    [
      "ava",
      "printf '  ✘ [fail]: adds\\n  ─\\n\\n  1 test failed\\n'; echo 'npm error code 1' >&2; exit 1",
      "  1 test failed",
    ],
    [
      "node:test",
      "printf 'ℹ tests 3\\nℹ pass 2\\nℹ fail 1\\nℹ duration_ms 40\\n'; exit 1",
      "  ℹ fail 1",
    ],
    [
      "bun",
      "printf ' 2 pass\\n 1 fail\\nRan 3 tests across 1 files. [12.00ms]\\n'; exit 1",
      "  1 fail",
    ],
    [
      "deno",
      "printf 'FAILED | 1 passed | 1 failed (15ms)\\n\\nerror: Test failed\\n'; exit 1",
      "  FAILED | 1 passed | 1 failed (15ms)",
    ],
  ])("names %s's summary under the ✗ line", async (_runner, command, summary) => {
    const screen = await screenAfter(command);
    const failed = screen.findIndex((row) => row.startsWith("✗ shell_failed:"));
    expect(failed).toBeGreaterThan(-1);
    expect(screen[failed + 1]).toBe(summary);
  });

  it("shows stdout's tail as well as stderr's when no runner summed up", async () => {
    const screen = await screenAfter(
      "echo 'Error: Cannot find module ./sum'; echo 'at require'; echo 'warning: old node' >&2; exit 1",
    );
    const failed = screen.findIndex((row) => row.startsWith("✗ shell_failed:"));
    expect(screen.slice(failed + 1, failed + 4)).toEqual([
      "  Error: Cannot find module ./sum",
      "  at require",
      "  [stderr] warning: old node",
    ]);
  });
});
