/**
 * Issue 16 end to end: the real CLI killed with SIGKILL mid-run, then `agent resume`. A call that
 * had started is reported unknown and never started again; every other step goes on.
 */
import { existsSync } from "node:fs";
import { appendFile, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  chatErrorReply,
  chatTextReply,
  chatToolCallsReply,
  type RecordedRequest,
} from "../support/chat-completions-server.js";
import { PTY_REASON, PtySession, isPtyAvailable } from "../support/pty.js";
import { TMUX_REASON, TmuxTerminal, isTmuxAvailable } from "../support/tmux.js";
import { useAgentFixture } from "./agent-fixture.js";
import { baseEnv, linesOf, serverEnv, startCli } from "./cli-process.js";
import { toolResults } from "./scripted-chat-server.js";
import { BWRAP_REASON, HAS_BWRAP } from "../support/bubblewrap.js";

const e2e = useAgentFixture();

// On PATH, where the agent looks for it, on Linux only.

const UNKNOWN =
  "Error [execution_unknown]: The agent stopped while this call was running, so it may or may not have taken effect; check its effect before retrying it";
/** The same for a call that ran on the host (issue 28): its command may still be running. */
const UNKNOWN_ON_HOST = `${UNKNOWN}. It ran on the host with no sandbox: the command, or what it started in the background, may still be running; check for it before running it again`;

/** The state directory of this test alone, beside (never inside) its workspace. */
function stateDir(): string {
  return join(e2e.dir.root, "state");
}

function env(extra: Record<string, string> = {}): Record<string, string> {
  return serverEnv(e2e.server.baseURL, { AGENT_STATE_DIR: stateDir(), ...extra });
}

async function runsDir(): Promise<string> {
  const workspaces = join(stateDir(), "workspaces");
  const [only] = await readdir(workspaces);
  return join(workspaces, only ?? "", "runs");
}

async function journalFile(): Promise<string> {
  const runs = await runsDir();
  const names = (await readdir(runs)).filter((name) => name.endsWith(".jsonl"));
  expect(names).toHaveLength(1);
  return join(runs, names[0] ?? "");
}

async function records(): Promise<{ type: string; [key: string]: unknown }[]> {
  const text = await readFile(await journalFile(), "utf8");
  return linesOf(text).map((line) => JSON.parse(line) as { type: string });
}

/** `agent [runs|resume] --workspace <ws> …`: a subcommand's word must come first. */
function agent(args: readonly string[], extra: Record<string, string> = {}) {
  const [first = "", ...rest] = args;
  const argv = ["runs", "resume"].includes(first)
    ? [first, "--workspace", e2e.dir.workspace, ...rest]
    : ["--workspace", e2e.dir.workspace, ...args];
  return startCli(argv, { env: env(extra) }).done;
}

async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let tries = 0; tries < 200; tries += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.skipIf(!isPtyAvailable())(`kill -9 while an approved command runs ${PTY_REASON}`, () => {
  it("resume reports the call unknown, does not start it again, and reaches the answer", async () => {
    // The command notes its own pid so the test can end it: the killed CLI cannot any more.
    const command =
      "echo $$ > command.pid; echo started >> marker.txt; sleep 20; echo finished >> marker.txt";
    e2e.server.script(
      chatToolCallsReply([{ id: "call_slow", name: "shell", arguments: { command } }]),
    );
    const session = PtySession.start(
      [...e2e.argv(["--sandbox", "off", "--prompt", "Run the slow job"])],
      { env: env() },
    );
    await session.waitForOutput("[y/N] ");
    session.type("y\r");
    const marker = join(e2e.dir.workspace, "marker.txt");
    await waitFor(() => Promise.resolve(existsSync(marker)), "the command to start");
    // The recovery record of the process follows the spawn; wait for it, not for time.
    // Read as text: the CLI may be appending its next line meanwhile.
    await waitFor(
      async () =>
        (await readFile(await journalFile(), "utf8")).includes('"type":"process_started"'),
      "the process's recovery record",
    );
    // The CLI's own pid opens its run lock ("PID NONCE", and its start on Linux): kill exactly it, as a crash would.
    const runs = await runsDir();
    const lock = (await readdir(runs)).find((name) => name.endsWith(".lock")) ?? "";
    const pid = Number((await readFile(join(runs, lock), "utf8")).split(" ")[0]);
    process.kill(pid, "SIGKILL");
    await session.exited;
    const before = await records();
    expect(before.map((record) => record.type)).toEqual([
      "run_started",
      "model_reply",
      "call_prepared",
      "decision",
      "execution_started",
      "process_started",
    ]);
    // The recovery record names the operation reserved before the call and the shell's own pid.
    const shellPid = Number(
      (await readFile(join(e2e.dir.workspace, "command.pid"), "utf8")).trim(),
    );
    expect(before[5]).toMatchObject({
      callId: "call_slow",
      operationId: before[4]?.operationId,
      pid: shellPid,
    });
    expect(String(before[4]?.operationId)).toMatch(/^op_[0-9a-f-]{36}$/);

    const listed = await startCli(["runs", "--workspace", e2e.dir.workspace], { env: env() }).done;
    expect(listed.exitCode).toBe(0);
    expect(listed.stdout).toMatch(
      /^\d{8}T\d{6}Z-[0-9a-f]{8} {2}\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ {2}unfinished {2}Run the slow job\n$/,
    );

    e2e.server.script(chatTextReply("The job may not have run; please check marker.txt."));
    const resumed = await agent(["resume", "--sandbox", "off"]);

    expect(resumed.exitCode).toBe(0);
    expect(resumed.stdout).toBe("The job may not have run; please check marker.txt.\n");
    // The person sees it: the call, its unknown result, and the closing count.
    expect(resumed.stderr).toContain("execution_unknown");
    expect(resumed.stderr).toContain("1 unknown");
    expect(toolResults(e2e.server.requests[0])).toEqual({ call_slow: UNKNOWN_ON_HOST });
    // Started once, by the killed process, and never again.
    expect(await readFile(marker, "utf8")).toBe("started\n");
    const after = await records();
    // After the killed run's six records (process_started is the sixth).
    expect(after.slice(6).map((record) => record.type)).toEqual([
      "run_resumed",
      "execution_finished",
      "model_reply",
      "run_finished",
    ]);
    expect(after[7]).toMatchObject({
      callId: "call_slow",
      outcome: { executed: "unknown", status: "unknown" },
    });
    const again = await agent(["runs"]);
    expect(again.stdout).toContain("  completed   Run the slow job\n");
    const commandPid = Number(
      (await readFile(join(e2e.dir.workspace, "command.pid"), "utf8")).trim(),
    );
    try {
      process.kill(-commandPid, "SIGKILL"); // its process group: the shell and its sleep
    } catch {
      // Already gone (a sandbox dies with its parent).
    }
  }, 60_000);
});

describe.skipIf(!isPtyAvailable() || !HAS_BWRAP)(
  `the journals in the sandbox ${PTY_REASON} ${BWRAP_REASON}`,
  () => {
    it("a sandboxed command sees the state directory empty and cannot write it", async () => {
      const state = stateDir();
      const command = `ls -A ${state}; cat ${state}/workspaces/*/runs/*.jsonl; touch ${state}/planted; echo end`;
      e2e.server.script(
        chatToolCallsReply([{ id: "call_peek", name: "shell", arguments: { command } }]),
        chatTextReply("Nothing there."),
      );
      const session = PtySession.start(
        [...e2e.argv(["--sandbox", "required", "--prompt", "Peek at the journals"])],
        { env: env() },
      );
      await session.waitForOutput("[y/N] ");
      session.type("y\r");
      const { exitCode } = await session.exited;

      expect(exitCode).toBe(0);
      expect(toolResults(e2e.server.requests[1])).toEqual({
        call_peek:
          `[stderr] cat: '${state}/workspaces/*/runs/*.jsonl': No such file or directory\n` +
          `[stderr] touch: cannot touch '${state}/planted': Read-only file system\n` +
          "end\n",
      });
      expect(existsSync(join(state, "planted"))).toBe(false);
    }, 30_000);
  },
);

const GLOB_CALL = { id: "call_glob", name: "glob", arguments: { pattern: "*.txt" } };

/** Replies by what the conversation holds: a glob call (or `call`) first, then the answer. */
function replyByState(
  request: RecordedRequest,
  call: typeof GLOB_CALL | typeof WRITE_CALL = GLOB_CALL,
) {
  const body = request.body as { messages: { role: string }[] };
  return body.messages.at(-1)?.role === "user"
    ? chatToolCallsReply([call])
    : chatTextReply("Done.");
}

/** A call with a side effect, which chapter 2 runs without asking. */
const WRITE_CALL = {
  id: "call_write",
  name: "write_file",
  arguments: { path: "note.txt", content: "n\n" },
};

describe("kill -9 after each journal step, then resume", () => {
  it.each([
    ["run_started", "a.txt"],
    ["model_reply", "a.txt"],
    ["call_prepared", "a.txt"],
    ["decision", "a.txt"],
    // glob is a read: interrupted, it changed nothing, so it is run again (seed 004).
    ["execution_started", "a.txt"],
    ["execution_finished", "a.txt"],
    ["model_reply:2", undefined],
  ])(
    "killed after %s: the run resumes to its answer",
    async (step, globResult) => {
      await writeFile(join(e2e.dir.workspace, "a.txt"), "a\n");
      e2e.server.script(...Array.from({ length: 6 }, () => replyByState));

      const killed = await agent(["--prompt", "List the text files"], {
        AGENT_TEST_KILL_AFTER_RECORD: step,
      });
      expect(killed.signal).toBe("SIGKILL");
      expect(killed.stdout).toBe("");
      const last = (await records()).at(-1);
      expect(last?.type).toBe(step.split(":")[0]);

      const resumed = await agent(["resume"]);
      expect(resumed.exitCode).toBe(0);
      expect(resumed.stdout).toBe("Done.\n");
      if (globResult !== undefined) {
        expect(toolResults(e2e.server.requests.at(-1))).toEqual({ call_glob: globResult });
      }
      expect((await records()).at(-1)?.type).toBe("run_finished");
    },
    30_000,
  );

  it("a resume killed in turn (after run_resumed, after the unknown result) resumes again", async () => {
    // A write may have taken effect: unknown, never run again.
    e2e.server.script(
      ...Array.from(
        { length: 6 },
        () => (request: RecordedRequest) => replyByState(request, WRITE_CALL),
      ),
    );
    await agent(["--chapter", "2", "--prompt", "Write a note"], {
      AGENT_TEST_KILL_AFTER_RECORD: "execution_started",
    });
    for (const step of ["run_resumed", "execution_finished"]) {
      const killed = await agent(["resume"], { AGENT_TEST_KILL_AFTER_RECORD: step });
      expect(killed.signal).toBe("SIGKILL");
    }

    const resumed = await agent(["resume"]);

    expect(resumed.exitCode).toBe(0);
    expect(resumed.stdout).toBe("Done.\n");
    expect(toolResults(e2e.server.requests.at(-1))).toEqual({ call_write: UNKNOWN });
    expect(existsSync(join(e2e.dir.workspace, "note.txt"))).toBe(false);
    // The call was never run again: only the first process ever started it.
    const types = (await records()).map((record) => record.type);
    expect(types.filter((type) => type === "execution_started")).toHaveLength(1);
    expect(types.slice(5)).toEqual([
      "run_resumed",
      "run_resumed",
      "execution_finished",
      "run_resumed",
      "model_reply",
      "run_finished",
    ]);
  }, 30_000);

  it("killed after run_finished: nothing to resume (exit 2)", async () => {
    e2e.server.script(chatTextReply("Done."));
    const killed = await agent(["--prompt", "Say done"], {
      AGENT_TEST_KILL_AFTER_RECORD: "run_finished",
    });
    expect(killed.signal).toBe("SIGKILL");
    const resumed = await agent(["resume"]);
    expect(resumed.exitCode).toBe(2);
    expect(resumed.stderr).toBe(
      `agent: no unfinished run in ${e2e.dir.workspace} to resume (agent runs lists them; agent resume --last goes on with the newest, whatever its state)\n`,
    );
  });

  it("a last record cut mid-line by a crash is dropped with a notice, and the run resumes", async () => {
    await writeFile(join(e2e.dir.workspace, "a.txt"), "a\n");
    e2e.server.script(...Array.from({ length: 4 }, () => replyByState));
    await agent(["--prompt", "List the text files"], {
      AGENT_TEST_KILL_AFTER_RECORD: "decision",
    });
    const path = await journalFile();
    await appendFile(path, '{"v":1,"time":"2026-12-01T00:00:00.000Z","type":"execution_st');

    const resumed = await agent(["resume"]);

    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(linesOf(resumed.stderr), resumed.stderr).toContain(
      `agent: the journal ${path} ends in a record cut off by a crash (61 bytes); going on from the last whole record`,
    );
    expect(resumed.stdout).toBe("Done.\n");
    expect(toolResults(e2e.server.requests.at(-1))).toEqual({ call_glob: "a.txt" });
  });

  it("a journal that does not parse is refused with its path and left as it is", async () => {
    e2e.server.script(...Array.from({ length: 4 }, () => replyByState));
    await agent(["--prompt", "List the text files"], { AGENT_TEST_KILL_AFTER_RECORD: "decision" });
    const path = await journalFile();
    const lines = linesOf(await readFile(path, "utf8"));
    const broken = [lines[0], "garbage", ...lines.slice(1)].join("\n") + "\n";
    await writeFile(path, broken);

    const runId = path.slice(path.lastIndexOf("/") + 1, -".jsonl".length);
    const resumed = await agent(["resume", runId]);
    const listed = await agent(["runs"]);

    expect(listed.stdout).toContain(
      `unreadable  the run journal ${path} cannot be read at line 2: it is not JSON; it was left as it is`,
    );
    expect(resumed.exitCode).toBe(2);
    expect(await readFile(path, "utf8")).toBe(broken);
  });

  it("a second resume of a run another live process holds is refused", async () => {
    e2e.server.script(...Array.from({ length: 4 }, () => replyByState));
    await agent(["--prompt", "List the text files"], { AGENT_TEST_KILL_AFTER_RECORD: "decision" });
    const path = await journalFile();
    const lock = path.replace(/\.jsonl$/, ".lock");
    // A live process of ours stands in for the other agent.
    await writeFile(lock, `${process.pid}\n`);
    const runId = path.slice(path.lastIndexOf("/") + 1, -".jsonl".length);

    const resumed = await agent(["resume", runId]);
    const listed = await agent(["runs"]);

    expect(resumed.exitCode).toBe(2);
    expect(resumed.stderr).toBe(
      `agent: the run is in use by process ${process.pid} (lock ${lock}); wait for it to end, or remove the lock if that process is gone\n`,
    );
    expect(listed.stdout).toContain("  running     List the text files\n");
  });
});

describe("agent resume after a provider failure", () => {
  it("plain agent resume goes on with the newest run when it failed (HTTP 500), and reaches the answer", async () => {
    e2e.server.script(chatErrorReply(500, "upstream broke"), chatTextReply("Done."));
    const failed = await agent(["--retries", "0", "--prompt", "Say done"]);
    expect(failed.exitCode, failed.stderr).toBe(1);
    const runId = (await journalFile()).split("/").at(-1)?.replace(".jsonl", "") ?? "";

    const resumed = await agent(["resume"]);

    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(linesOf(resumed.stderr)).toContain(`agent: resuming run ${runId} (failed): Say done`);
    expect(resumed.stdout).toBe("Done.\n");
    expect((await records()).map((record) => record.type)).toEqual([
      "run_started",
      "run_failed",
      "run_resumed",
      "model_reply",
      "run_finished",
    ]);
  });
});

describe("agent runs and resume: usage", () => {
  it("agent runs with no runs says so and exits 0", async () => {
    const run = await startCli(["runs", "--workspace", e2e.dir.workspace], {
      env: baseEnv({ AGENT_STATE_DIR: stateDir() }),
    }).done;
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      `agent: no runs in ${e2e.dir.workspace} yet (runs are kept per workspace: run this in the ` +
        "folder the agent ran in, or give --workspace)\n",
    );
  });

  it("agent runs shows a task's control and bidi characters escaped, never raw", async () => {
    e2e.server.script(chatTextReply("never asked"));
    const task = "\u001b[2Jclear\u202eevil";
    const killed = await agent(["--prompt", task], { AGENT_TEST_KILL_AFTER_RECORD: "run_started" });
    expect(killed.signal).toBe("SIGKILL");

    const listed = await agent(["runs"]);

    expect(listed.stdout).toMatch(/ {2}unfinished {2}\[2Jclear\\u\{202e\}evil\n$/);
    expect(listed.stdout).not.toContain("\u001b");
    expect(listed.stdout).not.toContain("\u202e");
  });

  it("resume refuses --chapter and --prompt: the journal decides them", async () => {
    const run = await agent(["resume", "--chapter", "1"]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe(
      "agent: agent resume takes --chapter from the run's journal; leave it out\n",
    );
  });

  it("a state directory inside the workspace is refused before the run, and before it is created", async () => {
    e2e.server.script(chatTextReply("never asked"));
    for (const inside of [join(e2e.dir.workspace, "state"), join(e2e.dir.workspace, "a", "b")]) {
      const run = await startCli(["--workspace", e2e.dir.workspace, "--prompt", "hi"], {
        env: serverEnv(e2e.server.baseURL, { AGENT_STATE_DIR: inside }),
      }).done;
      expect(run.exitCode).toBe(2);
      expect(run.stderr).toContain("overlaps the workspace");
    }
    expect(e2e.server.requests).toHaveLength(0);
    expect(existsSync(join(e2e.dir.workspace, "state"))).toBe(false);
    expect(existsSync(join(e2e.dir.workspace, "a"))).toBe(false);
  });

  it.skipIf(process.platform !== "linux")(
    "a state directory that cannot be created (/proc/nope) is a configuration error at once, naming it",
    async () => {
      const running = startCli(["--workspace", e2e.dir.workspace, "--prompt", "hi"], {
        env: serverEnv(e2e.server.baseURL, { AGENT_STATE_DIR: "/proc/nope/deeper" }),
      });
      // Node's recursive mkdir spins forever on /proc: end it rather than hang the suite.
      const timer = setTimeout(() => running.child.kill("SIGKILL"), 15_000);
      const run = await running.done.finally(() => {
        clearTimeout(timer);
      });
      expect(run.signal).toBe(null);
      expect(run.exitCode).toBe(2);
      expect(run.stderr).toBe(
        "agent: the state directory /proc/nope/deeper cannot be created: /proc/nope (ENOENT)\n",
      );
    },
  );
});

describe.skipIf(!isTmuxAvailable())(
  `a conversation goes on with agent resume ${TMUX_REASON}`,
  () => {
    const prompted = (rows: readonly string[]): boolean =>
      rows.filter((row) => row !== "").at(-1) === ">";

    it("agent resume RUN_ID on a terminal continues the conversation's history", async () => {
      e2e.server.script(chatTextReply("First answer."), chatTextReply("Second answer."));
      const first = TmuxTerminal.start(e2e.argv([]), { env: env(), columns: 80, rows: 24 });
      try {
        await first.waitForScreen(prompted);
        first.type("What is here?", "Enter");
        await first.waitForScreen((rows) => rows.includes("  First answer.") && prompted(rows));
        first.type("/exit", "Enter");
        await first.waitForExit();
      } finally {
        first.close();
      }
      const path = await journalFile();
      const runId = path.slice(path.lastIndexOf("/") + 1, -".jsonl".length);

      const second = TmuxTerminal.start(
        [...e2e.argv([]).slice(0, 2), "resume", runId, "--workspace", e2e.dir.workspace],
        { env: env(), columns: 80, rows: 24 },
      );
      try {
        await second.waitForScreen((rows) => rows.includes("  First answer.") && prompted(rows));
        second.type("And then?", "Enter");
        await second.waitForScreen((rows) => rows.includes("  Second answer.") && prompted(rows));
        second.type("/exit", "Enter");
        await second.waitForExit();
      } finally {
        second.close();
      }
      expect(e2e.server.requests).toHaveLength(2);
      expect(e2e.server.requests[1]?.messages.slice(1)).toEqual([
        { role: "user", content: "What is here?" },
        { role: "assistant", content: "First answer." },
        { role: "user", content: "And then?" },
      ]);
      expect((await records()).map((record) => record.type)).toEqual([
        "run_started",
        "model_reply",
        "run_finished",
        "run_resumed",
        "run_finished",
        "user_message",
        "model_reply",
        "run_finished",
      ]);
    }, 60_000);
  },
);
