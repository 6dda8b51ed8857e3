import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  NEVER_ANSWER,
  chatErrorReply,
  chatTextReply,
  chatToolCallsReply,
  chatUsage,
} from "../support/chat-completions-server.js";
import {
  KEY,
  PtySession,
  PTY_REASON,
  isPtyAvailable,
  terminalScreenLines,
} from "../support/pty.js";
import {
  baseEnv,
  linesOf,
  runCli,
  serverEnv,
  startCli,
  stderrLines,
  type CliRun,
} from "./cli-process.js";
import { useAgentFixture } from "./agent-fixture.js";

const e2e = useAgentFixture();
const { agent } = e2e;

/** A failure is reported as exactly one `agent: ` line at the end of stderr, never a stack. */
function expectOneLineFailure(run: CliRun, exitCode: number, message: string): void {
  expect(run.exitCode).toBe(exitCode);
  expect(run.stdout).toBe("");
  const lines = stderrLines(run);
  expect(lines.at(-1)).toBe(`agent: ${message}`);
  expect(lines.filter((line) => line.startsWith("agent: "))).toHaveLength(1);
  expect(lines.filter((line) => /^\s+at /.test(line))).toEqual([]);
}

describe("exit code 0", () => {
  it("prints the final answer alone on stdout; progress stays on stderr", async () => {
    e2e.server.script(chatTextReply("The answer is 42.", { usage: chatUsage(120, 8) }));

    const run = await agent(["--prompt", "What is the answer?"]);

    expect(run).toMatchObject({ exitCode: 0, signal: null, stdout: "The answer is 42.\n" });
    expect(stderrLines(run)).toEqual(["done in 1 turn · tokens 128 (prompt 120, completion 8)"]);
  });
});

describe("exit code 1: the run failed", () => {
  it("on a 500 the server marks as not retryable", async () => {
    e2e.server.script(
      chatErrorReply(500, "upstream exploded", {
        type: "server_error",
        headers: { "x-should-retry": "false" },
      }),
    );

    const run = await agent(["--prompt", "Hi"]);

    expectOneLineFailure(
      run,
      1,
      "The model provider had a server error (HTTP 500): upstream exploded",
    );
    expect(e2e.server.requests).toHaveLength(1);
  });

  it("on a 500 that persists through the retries, each retry said", async () => {
    const boom = chatErrorReply(500, "still down", {
      type: "server_error",
      headers: { "retry-after": "0" },
    });
    e2e.server.script(boom, boom, boom);

    const run = await agent(["--prompt", "Hi"]);

    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe("");
    expect(stderrLines(run)).toEqual([
      "agent: retrying in 0 s (1 of 2): server error (HTTP 500)",
      "agent: retrying in 0 s (2 of 2): server error (HTTP 500)",
      "agent: The model provider had a server error (HTTP 500): still down",
    ]);
    expect(e2e.server.requests).toHaveLength(3);
  });

  it("on the turn limit", async () => {
    e2e.server.script(
      chatToolCallsReply([{ id: "call_1", name: "glob", arguments: { pattern: "*" } }]),
      chatTextReply("never reached"),
    );

    const run = await agent(["--max-turns", "1", "--prompt", "Look around"]);

    // The limit's own words, then how to go on: resume continues with a fresh budget.
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe("");
    const lines = stderrLines(run);
    expect(lines.filter((line) => line.startsWith("agent: "))).toHaveLength(1);
    const runId = /agent resume (\S+)/.exec(lines.at(-1) ?? "")?.[1] ?? "";
    const limited = `The agent reached its limit of 1 turn without a final answer; to go on: agent resume ${runId} --max-turns 1 (a fresh budget of 1 turn)`;
    expect(lines.at(-1)).toBe(`agent: ${limited}`);
    expect(e2e.server.requests).toHaveLength(1);

    // The resume it names gets exactly that budget: one more request, then the same limit.
    e2e.server.script(
      chatToolCallsReply([{ id: "call_2", name: "glob", arguments: { pattern: "*" } }]),
      chatTextReply("never reached"),
    );
    const words = /to go on: agent (.+) \(/.exec(limited)?.[1]?.split(" ") ?? [];
    expect(words).toEqual(["resume", runId, "--max-turns", "1"]);
    const resumed = await runCli([...words, "--workspace", e2e.dir.workspace], {
      env: serverEnv(e2e.server.baseURL),
    });
    expect(resumed.exitCode).toBe(1);
    expect(stderrLines(resumed).at(-1)).toBe(`agent: ${limited}`);
    expect(e2e.server.requests).toHaveLength(1);
  });
});

describe("exit code 2: configuration", () => {
  it.each([
    [["--bogus"], "Unknown option '--bogus' (see --help)"],
    [["--workspace", "."], 'no task given: agent "<task>" or agent --prompt "<task>" (see --help)'],
    [["--chapter", "5", "--prompt", "x"], '--chapter must be 1, 2, 3 or 4 (got "5") (see --help)'],
    [
      ["--chapter", "1", "--audit-log", "audit.jsonl", "--prompt", "x"],
      "--audit-log needs a profile that audits its decisions (chapter 3, chapter 4 or --profile daily), not chapter 1 (see --help)",
    ],
    [
      ["--chapter", "2", "--audit-log", "audit.jsonl", "--prompt", "x"],
      "--audit-log needs a profile that audits its decisions (chapter 3, chapter 4 or --profile daily), not chapter 2 (see --help)",
    ],
  ])("%j → one line, no request", async (args, message) => {
    e2e.server.script(chatTextReply("unused"));

    const run = await agent(args);

    expect(run).toEqual({ exitCode: 2, signal: null, stdout: "", stderr: `agent: ${message}\n` });
    expect(e2e.server.rawRequests).toEqual([]);
  });

  it.each(["1", "2"])(
    "chapter %s with AGENT_AUDIT_LOG: refused, no request, no log file",
    async (chapter) => {
      e2e.server.script(chatTextReply("unused"));
      const log = join(e2e.dir.root, "audit.jsonl");

      const run = await agent(["--chapter", chapter, "--prompt", "x"], { AGENT_AUDIT_LOG: log });

      expect(run).toEqual({
        exitCode: 2,
        signal: null,
        stdout: "",
        stderr: `agent: AGENT_AUDIT_LOG needs a profile that audits its decisions (chapter 3, chapter 4 or --profile daily), not chapter ${chapter} (see --help)\n`,
      });
      expect(e2e.server.rawRequests).toEqual([]);
      expect(existsSync(log)).toBe(false);
    },
  );

  it("when neither OPENAI_API_KEY nor OPENAI_BASE_URL is set", async () => {
    // Written for the shell the person typed into: PowerShell on Windows, POSIX here.
    const setKey =
      process.platform === "win32"
        ? '$env:OPENAI_API_KEY = "sk-..."'
        : "export OPENAI_API_KEY=sk-...";
    const run = await runCli(["--workspace", e2e.dir.workspace, "--prompt", "Hi"], {
      env: baseEnv(),
    });

    expect(run).toEqual({
      exitCode: 2,
      signal: null,
      stdout: "",
      stderr: `agent: OPENAI_API_KEY is not set: set your OpenAI API key (${setKey}), or set OPENAI_BASE_URL to a local OpenAI-compatible server\n`,
    });
  });
});

describe("exit code 130: Ctrl-C", () => {
  it.skipIf(process.platform === "win32")(
    "SIGINT while waiting for the model cancels the run (POSIX only: Windows cannot send SIGINT to a process)",
    async () => {
      e2e.server.script(NEVER_ANSWER);
      const cli = startCli(["--workspace", e2e.dir.workspace, "--prompt", "Hi"], {
        env: serverEnv(e2e.server.baseURL),
      });
      await e2e.server.waitForRequests(1);

      cli.child.kill("SIGINT");
      const run = await cli.done;

      // Without a working bubblewrap the fallback warning comes first: a missing tool must not
      // fail the test.
      expect({ ...run, stderr: stderrLines(run) }).toEqual({
        exitCode: 130,
        signal: null,
        stdout: "",
        stderr: ["agent: cancelled"],
      });
    },
  );

  it.skipIf(!isPtyAvailable())(
    `Ctrl-C typed at the approval prompt cancels the run before the write ${PTY_REASON}`,
    async () => {
      e2e.server.script(
        chatToolCallsReply([
          { id: "call_w", name: "write_file", arguments: { path: "note.txt", content: "hi\n" } },
        ]),
        chatTextReply("never reached"),
      );
      const log = join(e2e.dir.root, "audit.jsonl");
      const session = PtySession.start(e2e.argv(["--audit-log", log, "--prompt", "Write"]), {
        env: serverEnv(e2e.server.baseURL),
      });
      await session.waitForOutput("Allow this call? [y/N] ");

      session.type(KEY.ctrlC);
      const { exitCode, output } = await session.exited;

      expect(exitCode).toBe(130);
      expect(existsSync(join(e2e.dir.workspace, "note.txt"))).toBe(false);
      // Nobody decided the call, so no decision is recorded for it, on screen or in the log (the
      // log is opened, so created, at start); the log's one line is the call's outcome: cancelled
      // at the prompt, never run.
      const lines = linesOf(await readFile(log, "utf8")).map(
        (line) => JSON.parse(line) as Record<string, unknown>,
      );
      expect(lines.map(({ callId, behavior, outcome }) => ({ callId, behavior, outcome }))).toEqual(
        [
          {
            callId: "call_w",
            behavior: undefined,
            outcome: expect.objectContaining({
              executed: "no",
              status: "cancelled",
              boundary: "confirmation",
            }) as unknown,
          },
        ],
      );
      const screen = terminalScreenLines(output);
      expect(screen.filter((line) => line.startsWith("[Permission] "))).toEqual([]);
      expect(screen.at(-2)).toBe("agent: cancelled");
      expect(screen.at(-1)).toBe("");
      expect(e2e.server.requests).toHaveLength(1);
    },
  );

  it.skipIf(!isPtyAvailable())(
    `Ctrl-C while an approved shell command runs stops it and the run ${PTY_REASON}`,
    async () => {
      e2e.server.script(
        chatToolCallsReply([
          {
            id: "call_s",
            name: "shell",
            arguments: { command: "echo started > started.txt; sleep 60" },
          },
        ]),
        chatTextReply("never reached"),
      );
      const session = PtySession.start(e2e.argv(["--prompt", "Wait"]), {
        env: serverEnv(e2e.server.baseURL),
      });
      await session.waitForOutput("Allow this call? [y/N] ");
      session.type("y\r");
      await waitForFile(join(e2e.dir.workspace, "started.txt"));

      session.type(KEY.ctrlC);
      const { exitCode, output } = await session.exited;

      expect(exitCode).toBe(130);
      const screen = terminalScreenLines(output);
      expect(
        screen.some((line) =>
          line.includes("✗ shell_cancelled: Command was cancelled before it finished"),
        ),
      ).toBe(true);
      expect(screen.at(-2)).toBe("agent: cancelled");
      expect(e2e.server.requests).toHaveLength(1);
    },
  );
});

describe.skipIf(!isPtyAvailable())(
  `exit code 130: a signal while the prompt waits ${PTY_REASON}`,
  () => {
    // How long the CLI has to end after the signal before the test answers the prompt itself, so
    // a CLI that ignores the signal fails this test instead of hanging it. Generous: two busy cores
    // can take seconds to schedule a fresh Node process's signal handler and exit.
    const SIGINT_GRACE_MS = 15_000;

    // A SIGINT that reaches the process while the prompt waits (kill -INT, a supervisor stopping the
    // agent) must close the prompt, not leave it waiting for an answer nobody will give.
    it("SIGINT sent to the process while the approval prompt waits ends the run without an answer", async () => {
      e2e.server.script(
        chatToolCallsReply([
          { id: "call_w", name: "write_file", arguments: { path: "note.txt", content: "hi\n" } },
        ]),
        chatTextReply("never reached"),
      );
      // `exec` keeps the pid the shell prints, so the test can signal the CLI itself.
      const session = PtySession.start(
        ["sh", "-c", 'echo "pid=$$"; exec "$0" "$@"', ...e2e.argv(["--prompt", "Write"])],
        { env: serverEnv(e2e.server.baseURL) },
      );
      await session.waitForOutput("Allow this call? [y/N] ");
      const pid = Number(/pid=(\d+)/.exec(session.output)?.[1]);

      process.kill(pid, "SIGINT");
      let grace: NodeJS.Timeout | undefined;
      const ended = await Promise.race([
        session.exited.then(() => true),
        new Promise<boolean>((resolve) => {
          grace = setTimeout(() => {
            resolve(false);
          }, SIGINT_GRACE_MS);
        }),
      ]);
      clearTimeout(grace);
      if (!ended) session.type("n\r");
      const { exitCode } = await session.exited;

      expect(ended).toBe(true);
      expect(exitCode).toBe(130);
      expect(existsSync(join(e2e.dir.workspace, "note.txt"))).toBe(false);
    }, 60_000);
  },
);

async function waitForFile(path: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!existsSync(path)) {
    if (Date.now() > deadline) throw new Error(`${path} did not appear`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
