/**
 * Text a shell pipes to the agent (`git diff | agent "review"`) is not read: the run says so once,
 * so nobody takes the model's answer for a review of text it never saw. A program that starts the
 * agent with a socket for stdin (Node's spawn, as every other e2e test does) hears nothing of it.
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { chatTextReply } from "../support/chat-completions-server.js";
import { linesOf, runCli, serverEnv } from "./cli-process.js";
import { useAgentFixture } from "./agent-fixture.js";

const e2e = useAgentFixture();
const WARNING =
  'agent: warning: standard input is a pipe or a file, which the agent does not read: save text for it to a file and mention it (agent "review @changes.diff")';

/** `printf TEXT | node dist/agent.cjs …` through a real shell pipe. */
function throughShellPipe(text: string, args: readonly string[]) {
  const argv = e2e.argv(args);
  const child = spawn("sh", ["-c", 'printf %s "$0" | "$@"', text, ...argv], {
    env: serverEnv(e2e.server.baseURL),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise<{ exitCode: number | null; stdout: string; stderr: string }>((resolve) => {
    child.once("close", (exitCode) => {
      resolve({ exitCode, stdout, stderr });
    });
  });
}

describe.skipIf(process.platform === "win32")("text piped by a shell", () => {
  it("is not sent to the model, and the run says so once", async () => {
    e2e.server.script(chatTextReply("Nothing to review."));
    const run = await throughShellPipe("diff --git a/x b/x\n+SECRET-DIFF-LINE\n", [
      "--chapter",
      "2",
      "review this",
    ]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe("Nothing to review.\n");
    expect(linesOf(run.stderr).filter((line) => line === WARNING)).toHaveLength(1);
    expect(e2e.server.requests).toHaveLength(1);
    expect(e2e.server.rawRequests[0]?.rawBody).toContain("review this");
    expect(e2e.server.rawRequests[0]?.rawBody).not.toContain("SECRET-DIFF-LINE");
  });

  it("with no task either, the one line says both", async () => {
    e2e.server.script();
    const run = await throughShellPipe("fix the bug", ["--chapter", "2"]);
    expect(run.exitCode).toBe(2);
    expect(linesOf(run.stderr)).toEqual([
      'agent: no task given: agent "<task>" or agent --prompt "<task>" (see --help); standard input is a pipe or a file, which the agent does not read: save text for it to a file and mention it (agent "review @changes.diff")',
    ]);
    expect(e2e.server.requests).toHaveLength(0);
  });

  it("--quiet keeps the warning out", async () => {
    e2e.server.script(chatTextReply("ok"));
    const run = await throughShellPipe("x", ["--chapter", "2", "--quiet", "task"]);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).not.toContain("piped");
  });
});

describe("a program's socket for stdin", () => {
  it("is not taken for a pipe: no warning", async () => {
    e2e.server.script(chatTextReply("ok"));
    const run = await runCli(["--workspace", e2e.dir.workspace, "--chapter", "2", "task"], {
      env: serverEnv(e2e.server.baseURL),
      input: "typed by a program",
    });
    expect(run.exitCode).toBe(0);
    expect(run.stderr).not.toContain("piped");
  });
});
