/**
 * Issue 27 on a real terminal (tmux): a bracketed paste is one message with its lines, a `/word`
 * is a command and never a model request, and Up recalls a line from an earlier session.
 */
import { describe, expect, it } from "vitest";
import { mkdtemp } from "node:fs/promises";
import { join } from "node:path";
import { chatStreamTextReply, chatTextReply } from "../support/chat-completions-server.js";
import { TMUX_REASON, isTmuxAvailable } from "../support/tmux.js";
import { useAgentFixture } from "./agent-fixture.js";
import { runCli, serverEnv } from "./cli-process.js";

const e2e = useAgentFixture();

const lastRowIsPrompt = (rows: readonly string[]): boolean =>
  rows.filter((row) => row !== "").at(-1) === ">";
const shows = (text: string) => (rows: readonly string[]) =>
  rows.some((row) => row.includes(text)) && lastRowIsPrompt(rows);

describe.skipIf(!isTmuxAvailable())(`conversation input on a real terminal ${TMUX_REASON}`, () => {
  it("a bracketed paste of three lines reaches the model as one message with three lines", async () => {
    e2e.server.script(chatTextReply("Got it."));
    await e2e.inTerminal([], async (terminal) => {
      await terminal.waitForScreen(lastRowIsPrompt);
      terminal.paste("Error: boom\n    at f (a.js:1:1)\n    at g (b.js:2:2)");
      await terminal.waitForScreen((rows) => rows.some((row) => row === "> [pasted 3 lines]"));
      terminal.type("Enter");
      await terminal.waitForScreen(shows("  Got it."));
      terminal.type("/exit", "Enter");
      await terminal.waitForExit();
    });
    expect(e2e.server.requests).toHaveLength(1);
    expect(e2e.server.requests[0]?.messages.at(-1)).toEqual({
      role: "user",
      content: "Error: boom\n    at f (a.js:1:1)\n    at g (b.js:2:2)",
    });
  });

  it("pasted escape sequences are shown as a placeholder, never drawn, and sent as pasted", async () => {
    e2e.server.script(chatTextReply("Seen."));
    const hostile = "red \u001b[31mtext\u001b[0m\u001b[2J";
    const rows = await e2e.inTerminal([], async (terminal) => {
      await terminal.waitForScreen(lastRowIsPrompt);
      terminal.paste(hostile);
      await terminal.waitForScreen((shown) => shown.includes("> [pasted 1 line]"));
      terminal.type("Enter");
      const shown = await terminal.waitForScreen(shows("  Seen."));
      terminal.type("C-d");
      await terminal.waitForExit();
      return shown;
    });
    // The screen was not cleared: the banner is still there.
    expect(rows.some((row) => row.startsWith("Conversation:"))).toBe(true);
    expect(e2e.server.requests[0]?.messages.at(-1)).toEqual({ role: "user", content: hostile });
  });

  it("/nonsense is an error listing the commands and never a model request", async () => {
    e2e.server.script(chatTextReply("Only this."));
    await e2e.inTerminal([], async (terminal) => {
      await terminal.waitForScreen(lastRowIsPrompt);
      terminal.type("/nonsense now", "Enter");
      await terminal.waitForScreen(shows("agent: unknown command /nonsense"));
      const rows = terminal.rows();
      expect(rows.some((row) => row.startsWith("  /model [NAME]"))).toBe(true);
      terminal.type("Hello", "Enter");
      await terminal.waitForScreen(shows("  Only this."));
      terminal.type("/exit", "Enter");
      await terminal.waitForExit();
    });
    expect(e2e.server.requests).toHaveLength(1);
    expect(e2e.server.requests[0]?.messages.slice(1)).toEqual([{ role: "user", content: "Hello" }]);
  });

  it("a trailing backslash goes on on the next line; /model switches the next turn's model", async () => {
    e2e.server.script(chatTextReply("One."), chatTextReply("Two."));
    await e2e.inTerminal([], async (terminal) => {
      await terminal.waitForScreen(lastRowIsPrompt);
      terminal.type("first line\\", "Enter");
      await terminal.waitForScreen((rows) => rows.filter((row) => row !== "").at(-1) === "…");
      terminal.type("second line", "Enter");
      await terminal.waitForScreen(shows("  One."));
      terminal.type("/model other-model", "Enter");
      await terminal.waitForScreen(shows("agent: model other-model from the next turn on"));
      terminal.type("Again", "Enter");
      await terminal.waitForScreen(shows("  Two."));
      terminal.type("/exit", "Enter");
      await terminal.waitForExit();
    });
    expect(e2e.server.requests[0]?.messages.at(-1)).toEqual({
      role: "user",
      content: "first line\nsecond line",
    });
    expect(e2e.server.requests.map((request) => request.model)).toEqual([
      e2e.server.requests[0]?.model,
      "other-model",
    ]);
    expect(e2e.server.requests[0]?.model).not.toBe("other-model");
  });

  it("/model before the first message: the run's journal is readable, agent runs lists it and resume takes it", async () => {
    const stateDir = await mkdtemp(join(e2e.dir.root, "state-"));
    e2e.server.script(chatTextReply("One."), chatTextReply("Two."));
    const extraEnv = { AGENT_STATE_DIR: stateDir };
    await e2e.inTerminal(
      [],
      async (terminal) => {
        await terminal.waitForScreen(lastRowIsPrompt);
        terminal.type("/model other-model", "Enter");
        await terminal.waitForScreen(shows("agent: model other-model from the next turn on"));
        terminal.type("Hello", "Enter");
        await terminal.waitForScreen(shows("  One."));
        terminal.type("C-d");
        await terminal.waitForExit();
      },
      { extraEnv },
    );
    expect(e2e.server.requests.map((request) => request.model)).toEqual(["other-model"]);
    const env = serverEnv(e2e.server.baseURL, extraEnv);
    const listed = await runCli(["runs", "--workspace", e2e.dir.workspace], { env });
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/ {2}completed +Hello\n$/);
    const id = /^(\S+)/.exec(listed.stdout.trim().split("\n").at(-1) ?? "")?.[1] ?? "";
    // A completed run goes on only on a terminal; piped, resume reads the journal and says so.
    const resumed = await runCli(["resume", id, "--workspace", e2e.dir.workspace], { env });
    expect(resumed.stderr).toBe(`agent: run ${id} already completed; nothing to resume\n`);
  });

  it("Up recalls a line typed in an earlier session", async () => {
    const stateDir = await mkdtemp(join(e2e.dir.root, "state-"));
    e2e.server.script(chatTextReply("First."), chatTextReply("Second."));
    const options = { extraEnv: { AGENT_STATE_DIR: stateDir } };
    await e2e.inTerminal(
      [],
      async (terminal) => {
        await terminal.waitForScreen(lastRowIsPrompt);
        terminal.type("remember me", "Enter");
        await terminal.waitForScreen(shows("  First."));
        terminal.type("C-d");
        await terminal.waitForExit();
      },
      options,
    );
    await e2e.inTerminal(
      [],
      async (terminal) => {
        await terminal.waitForScreen(lastRowIsPrompt);
        terminal.type("Up");
        await terminal.waitForScreen((rows) => rows.includes("> remember me"));
        terminal.type("Enter");
        await terminal.waitForScreen(shows("  Second."));
        terminal.type("C-d");
        await terminal.waitForExit();
      },
      options,
    );
    expect(e2e.server.requests[1]?.messages.at(-1)).toEqual({
      role: "user",
      content: "remember me",
    });
  });

  it("lines that arrive in one read without bracketed paste are each sent, in order", async () => {
    e2e.server.script(chatTextReply("A."), chatTextReply("B."), chatTextReply("C."));
    await e2e.inTerminal([], async (terminal) => {
      await terminal.waitForScreen(lastRowIsPrompt);
      terminal.type("-l", "alpha\rbeta\rgamma\r");
      const rows = await terminal.waitForScreen(shows("  C."));
      // Each turn's answer, then its closing line under it.
      expect(rows[rows.indexOf("  C.") + 1]).toMatch(/^done in 1 turn/u);
      terminal.type("/exit", "Enter");
      await terminal.waitForExit();
    });
    expect(e2e.server.requests.map((request) => request.messages.at(-1))).toEqual([
      { role: "user", content: "alpha" },
      { role: "user", content: "beta" },
      { role: "user", content: "gamma" },
    ]);
  });

  it("lines typed while a turn works are the next messages, in order", async () => {
    e2e.server.script(
      chatStreamTextReply(["Working", " on it."], { delayMs: 1_500 }),
      chatTextReply("Second."),
      chatTextReply("Third."),
    );
    await e2e.inTerminal([], async (terminal) => {
      await terminal.waitForScreen(lastRowIsPrompt);
      terminal.type("first", "Enter");
      await terminal.waitForScreen((rows) => rows.some((row) => row.includes("Working")));
      terminal.type("-l", "second\rthird\r");
      await terminal.waitForScreen(shows("  Third."));
      terminal.type("/exit", "Enter");
      await terminal.waitForExit();
    });
    expect(e2e.server.requests.map((request) => request.messages.at(-1))).toEqual([
      { role: "user", content: "first" },
      { role: "user", content: "second" },
      { role: "user", content: "third" },
    ]);
  });
});
