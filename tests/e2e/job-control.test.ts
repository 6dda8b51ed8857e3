/**
 * Ctrl-Z and `fg` in a real shell with job control (bash in tmux): the prompt that was open comes
 * back in the same mode and waits for its answer; the process never ends on its own with a run
 * left unfinished.
 */
import { spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  chatGatedStreamReply,
  chatTextReply,
  chatToolCallsReply,
  streamGate,
} from "../support/chat-completions-server.js";
import { shellQuote } from "../support/pty.js";
import { TMUX_REASON, TmuxTerminal, isTmuxAvailable } from "../support/tmux.js";
import { useAgentFixture } from "./agent-fixture.js";
import { CLI_PATH, serverEnv } from "./cli-process.js";

const e2e = useAgentFixture();

/** bash with job control, no start-up files, and a prompt the test can wait for. */
async function inShell<T>(steps: (terminal: TmuxTerminal) => Promise<T>): Promise<T> {
  const terminal = TmuxTerminal.start(["bash", "--noprofile", "--norc", "-i"], {
    env: serverEnv(e2e.server.baseURL, { PS1: "$ " }),
    columns: 100,
    rows: 30,
  });
  try {
    await terminal.waitForScreen((rows) => rows.includes("$"));
    return await steps(terminal);
  } finally {
    terminal.close();
  }
}

const agentCommand = (args: readonly string[]): string =>
  `${e2e.argv(args).map(shellQuote).join(" ")}; echo EXIT=$?`;

/** The agent's own process (its argv names this test's workspace), never the shell's. */
function agentPids(): number[] {
  const found = spawnSync("pgrep", ["-f", `${CLI_PATH} --workspace ${e2e.dir.workspace}`], {
    encoding: "utf8",
  });
  const pids = found.stdout
    .split("\n")
    .filter((line) => line !== "")
    .map(Number);
  if (pids.length === 0) throw new Error("the agent's process was not found");
  return pids;
}

const showsRow = (text: string) => (rows: readonly string[]) => rows.some((row) => row === text);
const lastRow = (rows: readonly string[]): string => rows.filter((row) => row !== "").at(-1) ?? "";
const APPROVAL_PROMPT = "Allow this call? [y/N]";
const pressCtrlZ = (terminal: TmuxTerminal) => (): void => {
  terminal.type("C-z");
};

/** Types the agent's command line into the shell and waits for `prompt` on the last row. */
async function startAgent(terminal: TmuxTerminal, args: readonly string[], prompt: string) {
  terminal.type("-l", agentCommand(args));
  terminal.type("Enter");
  await terminal.waitForScreen((shown) => lastRow(shown) === prompt);
}

/** `stop` the agent, wait for bash to say so, `fg` it, and wait for `prompt` drawn again. */
async function stopAndResume(terminal: TmuxTerminal, stop: () => void, prompt: string) {
  stop();
  await terminal.waitForScreen((shown) => shown.some((row) => row.includes("Stopped")));
  terminal.type("-l", "fg; echo FG=$?");
  terminal.type("Enter");
  await terminal.waitForScreen((shown) => lastRow(shown) === prompt);
}

/** The screen once the resumed agent has ended and bash printed its status. */
const afterFg = (terminal: TmuxTerminal): Promise<string[]> =>
  terminal.waitForScreen((shown) => shown.some((row) => row.startsWith("FG=")));

describe.skipIf(!isTmuxAvailable())(`Ctrl-Z and fg ${TMUX_REASON}`, () => {
  it("at an approval prompt: after fg the prompt waits, and its answer is taken", async () => {
    e2e.server.script(
      chatToolCallsReply([
        { id: "call_z", name: "write_file", arguments: { path: "z.txt", content: "x" } },
      ]),
      chatTextReply("Written."),
    );
    const rows = await inShell(async (terminal) => {
      await startAgent(terminal, ["--prompt", "z3"], APPROVAL_PROMPT);
      // The prompt is drawn again and stays: nothing ends until the person answers.
      await stopAndResume(terminal, pressCtrlZ(terminal), APPROVAL_PROMPT);
      terminal.type("y", "Enter");
      return afterFg(terminal);
    });
    // The agent finished its run under fg (a stopped job's list is not resumed: no EXIT=).
    expect(rows).toContain("FG=0");
    expect(rows).toContain(
      "[Permission] write_file: allow (terminal-approval) - User approved this tool call",
    );
    expect(await readFile(join(e2e.dir.workspace, "z.txt"), "utf8")).toBe("x");
    expect(e2e.server.requests).toHaveLength(2);
  });

  it("a stop sent from outside (kill -TSTP): after fg the prompt is raw again, keys echoed once", async () => {
    e2e.server.script(
      chatToolCallsReply([
        { id: "call_k", name: "write_file", arguments: { path: "k.txt", content: "k" } },
      ]),
      chatTextReply("Written."),
    );
    const rows = await inShell(async (terminal) => {
      await startAgent(terminal, ["--prompt", "k3"], APPROVAL_PROMPT);
      const stopFromOutside = (): void => {
        for (const pid of agentPids()) process.kill(pid, "SIGTSTP");
      };
      await stopAndResume(terminal, stopFromOutside, APPROVAL_PROMPT);
      terminal.type("y", "Enter");
      return afterFg(terminal);
    });
    expect(rows).toContain("FG=0");
    // In cooked mode the terminal would have echoed the key as well: `[y/N] yy`.
    expect(rows.filter((row) => row.startsWith("Allow this call?")).at(-1)).toBe(
      "Allow this call? [y/N] y",
    );
    expect(await readFile(join(e2e.dir.workspace, "k.txt"), "utf8")).toBe("k");
  });

  it("at the conversation's prompt: after fg, typed lines are sent and /exit ends it", async () => {
    e2e.server.script(chatTextReply("Back again."));
    const rows = await inShell(async (terminal) => {
      await startAgent(terminal, [], ">");
      await stopAndResume(terminal, pressCtrlZ(terminal), ">");
      terminal.type("-l", "hello after fg");
      terminal.type("Enter");
      await terminal.waitForScreen(showsRow("  Back again."));
      terminal.type("-l", "/exit");
      terminal.type("Enter");
      return afterFg(terminal);
    });
    expect(rows).toContain("FG=0");
    // Raw mode came back with the prompt: what was typed was echoed once, by readline.
    expect(rows).toContain("> hello after fg");
    expect(e2e.server.requests).toHaveLength(1);
    expect(e2e.server.requests[0]?.messages.at(-1)).toEqual({
      role: "user",
      content: "hello after fg",
    });
  });

  it("during a turn: after fg, keys typed ahead are still kept out of the streamed answer", async () => {
    const resumed = streamGate();
    const typed = streamGate();
    e2e.server.script(
      chatGatedStreamReply([
        { text: "Before the stop," },
        { text: " after fg,", until: resumed.opened },
        { text: " and the end.", until: typed.opened },
      ]),
      chatTextReply("Second."),
    );
    const rows = await inShell(async (terminal) => {
      await startAgent(terminal, [], ">");
      terminal.type("-l", "first");
      terminal.type("Enter");
      const streaming = (text: string) => (shown: readonly string[]) =>
        shown.some((row) => row.endsWith(text));
      await terminal.waitForScreen(streaming("Before the stop,"));
      terminal.type("C-z");
      await terminal.waitForScreen((shown) => shown.some((row) => row.includes("Stopped")));
      terminal.type("-l", "fg; echo FG=$?");
      terminal.type("Enter");
      // The shell put its own modes back (echo on) for the stop; the agent runs again once the
      // next piece shows.
      resumed.open();
      await terminal.waitForScreen(streaming("after fg,"));
      terminal.type("-l", "typed ahead");
      terminal.type("Enter");
      typed.open();
      await terminal.waitForScreen(showsRow("  Second."));
      terminal.type("-l", "/exit");
      terminal.type("Enter");
      return afterFg(terminal);
    });
    // What was drawn before the stop stays above the shell's lines. After fg's line naming the
    // job: the answer once, whole, and the typed line only at its own prompt (bash's `$` after
    // FG= may not be drawn yet).
    const fgAt = rows.indexOf("$ fg; echo FG=$?");
    const jobAt = rows.findIndex((row, at) => at > fgAt && row.endsWith("/workspace'"));
    expect(rows.slice(jobAt + 1, rows.indexOf("FG=0") + 1).filter((row) => row !== "")).toEqual([
      "  Before the stop, after fg, and the end.",
      "done in 1 turn · context 0% used",
      "> typed ahead",
      "  Second.",
      "done in 1 turn · context 0% used",
      "> /exit",
      "FG=0",
    ]);
    expect(e2e.server.requests.map((request) => request.messages.at(-1))).toEqual([
      { role: "user", content: "first" },
      { role: "user", content: "typed ahead" },
    ]);
  });
});
