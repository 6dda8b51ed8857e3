/**
 * The report's 10-turn task (a glob, two reads, three identical test runs, an edit, two searches)
 * through the real CLI in a pseudo-terminal: the daily profile asks at most 3 times, chapter 3
 * asks for every command and the edit, as it always has.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { PTY_REASON, isPtyAvailable, runInPty, terminalScreenLines } from "../support/pty.js";
import { BWRAP_REASON, HAS_BWRAP } from "../support/bubblewrap.js";
import { serverEnv } from "./cli-process.js";
import { useAgentFixture } from "./agent-fixture.js";

const e2e = useAgentFixture();

const call = (id: string, name: string, args: Record<string, unknown>) =>
  chatToolCallsReply([{ id, name, arguments: args }]);

function tenTurns(search: "grep" | "shell") {
  const find = (id: string, pattern: string) =>
    search === "grep"
      ? call(id, "grep", { pattern })
      : call(id, "shell", { command: `grep -rn ${pattern} .` });
  return [
    call("c1", "glob", { pattern: "**/*.js" }),
    call("c2", "read_file", { path: "lib.js" }),
    call("c3", "read_file", { path: "test.js" }),
    call("c4", "shell", { command: "echo tests passed" }),
    call("c5", "shell", { command: "echo tests passed" }),
    call("c6", "shell", { command: "echo tests passed" }),
    call("c7", "edit_file", { path: "lib.js", old_string: "1", new_string: "2" }),
    find("c8", "answer"),
    find("c9", "module"),
    chatTextReply("Finished."),
  ];
}

async function promptsOf(args: readonly string[], prompt: string, answers: readonly string[]) {
  await writeFile(join(e2e.dir.workspace, "lib.js"), "module.exports = { answer: 1 };\n");
  await writeFile(join(e2e.dir.workspace, "test.js"), "require('./lib.js');\n");
  const { exitCode, output } = await runInPty(e2e.argv(args), {
    env: serverEnv(e2e.server.baseURL),
    prompt,
    answers,
  });
  return { exitCode, output, screen: terminalScreenLines(output) };
}

const count = (haystack: string, needle: string): number => haystack.split(needle).length - 1;

describe.skipIf(!isPtyAvailable())(`the 10-turn task through a real terminal ${PTY_REASON}`, () => {
  it.skipIf(!HAS_BWRAP)(
    `the daily profile asks twice: the first test run (answered a) and the edit ${BWRAP_REASON}`,
    async () => {
      e2e.server.script(...tenTurns("grep"));
      const run = await promptsOf(
        ["--profile", "daily", "--sandbox", "required", "--prompt", "Fix it"],
        "[y/N/a] ",
        ["a\r", "y\r"],
      );
      expect(run.exitCode).toBe(0);
      expect(count(run.output, "Allow this call? [y/N/a]")).toBe(2);
      expect(run.screen.filter((line) => line.includes("allow (run-grant)"))).toHaveLength(2);
      expect(run.screen.some((line) => line.startsWith("[Permission] grep: allow (default)"))).toBe(
        true,
      );
    },
  );

  it("with commands on the host, daily asks each test run [y/N] and says why; the edit still takes a", async () => {
    e2e.server.script(...tenTurns("grep"));
    const run = await promptsOf(
      ["--profile", "daily", "--sandbox", "off", "--prompt", "Fix it"],
      "Allow this call? [y/N",
      ["a\r", "y\r", "y\r", "y\r", "y\r"],
    );
    expect(run.exitCode).toBe(0);
    // The first `a` was typed at a [y/N] question: it decides nothing, keeps nothing, and the
    // question comes again.
    expect(count(run.output, "a is not an answer here: y allows this call once")).toBe(1);
    expect(count(run.output, "Allow this call? [y/N] ")).toBe(4);
    expect(count(run.output, "Allow this call? [y/N/a]")).toBe(1);
    expect(count(run.output, "No a (for the rest of this run) here: commands run outside")).toBe(3);
    expect(run.screen.filter((line) => line.includes("allow (run-grant)"))).toHaveLength(0);
    expect(
      run.screen.filter((line) => line.startsWith("[Permission] shell: allow (terminal-approval)")),
    ).toHaveLength(3);
    expect(run.screen.some((line) => line.includes("deny (terminal-approval)"))).toBe(false);
  });

  it("chapter 3 asks as it always has: every command and the edit", async () => {
    e2e.server.script(...tenTurns("shell"));
    const run = await promptsOf(
      ["--chapter", "3", "--sandbox", "off", "--prompt", "Fix it"],
      "[y/N] ",
      ["y\r", "y\r", "y\r", "y\r", "y\r", "y\r"],
    );
    expect(run.exitCode).toBe(0);
    expect(count(run.output, "Allow this call? [y/N] ")).toBe(6);
    expect(count(run.output, "[y/N/a]")).toBe(0);
  });
});
