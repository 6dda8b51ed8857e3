import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { KEY, PTY_REASON, isPtyAvailable, runInPty, terminalScreenLines } from "../support/pty.js";
import { linesOf, serverEnv, startCli } from "./cli-process.js";
import { useAgentFixture } from "./agent-fixture.js";
import { toolResults } from "./scripted-chat-server.js";

const QUESTION = "Allow this call? [y/N] ";
const WRITE_REASON = "Reason: File writes require explicit approval from chapter 3 onward";
const APPROVED =
  "[Permission] write_file: allow (terminal-approval) - User approved this tool call";
const DENIED = "[Permission] write_file: deny (terminal-approval) - User denied this tool call";
const WRITE_NOTE = chatToolCallsReply([
  { id: "call_w", name: "write_file", arguments: { path: "note.txt", content: "hello, world\n" } },
]);

const e2e = useAgentFixture();

interface PtyRun {
  readonly exitCode: number | null;
  readonly raw: string;
  readonly screen: string[];
}

/** Runs the agent in a real terminal and types each answer once a `[y/N]` prompt is shown. */
async function agentInPty(args: readonly string[], answers: readonly string[]): Promise<PtyRun> {
  const { exitCode, output } = await runInPty(e2e.argv(args), {
    env: serverEnv(e2e.server.baseURL),
    prompt: "[y/N] ",
    answers,
  });
  return { exitCode, raw: output, screen: terminalScreenLines(output) };
}

function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

/** The lines of the first approval prompt, from its title to the question with what was typed. */
function firstPrompt(screen: readonly string[], title: string): string[] {
  const start = screen.indexOf(title);
  const end = screen.findIndex((line, index) => index > start && line.includes("[y/N] "));
  return start === -1 || end === -1 ? [] : screen.slice(start, end + 1);
}

describe.skipIf(!isPtyAvailable())(`approval through a real terminal ${PTY_REASON}`, () => {
  // label, keys typed, what the prompt line shows afterwards, whether the write is allowed
  it.each([
    ["y", "y\r", "y", true],
    ["yes", "yes\r", "yes", true],
    ["n", "n\r", "n", false],
    ["Enter", KEY.enter, "", false],
    ["EOF (Ctrl-D)", KEY.ctrlD, "", false],
  ])("%s", async (_label, keys, echoed, allowed) => {
    e2e.server.script(WRITE_NOTE, chatTextReply("Finished."));

    const run = await agentInPty(["--prompt", "Write a note"], [keys]);

    expect(run.exitCode).toBe(0);
    expect(count(run.raw, QUESTION)).toBe(1);
    expect(firstPrompt(run.screen, "Tool call needs approval: write_file")).toEqual([
      "Tool call needs approval: write_file",
      WRITE_REASON,
      'Arguments: {"path":"note.txt","content":"hello, world\\n"}',
      'Path: "note.txt"',
      `${QUESTION}${echoed}`,
    ]);
    expect(run.screen).toContain(allowed ? APPROVED : DENIED);
    expect(run.screen).not.toContain(allowed ? DENIED : APPROVED);
    // The answer, then the closing line under it.
    expect(run.screen.at(-3)).toBe("  Finished.");
    expect(run.screen.at(-2)).toMatch(/^done in /u);
    expect(toolResults(e2e.server.requests[1])).toEqual({
      call_w: allowed
        ? "Wrote 13 UTF-8 bytes to note.txt"
        : "Error [permission_denied]: User denied this tool call",
    });
    if (allowed)
      expect(await readFile(join(e2e.dir.workspace, "note.txt"), "utf8")).toBe("hello, world\n");
    else expect(existsSync(join(e2e.dir.workspace, "note.txt"))).toBe(false);
  });

  it("asks in Chinese with --lang zh", async () => {
    e2e.server.script(WRITE_NOTE, chatTextReply("完成。"));

    const run = await agentInPty(["--lang", "zh", "--prompt", "写一个笔记"], ["y\r"]);

    expect(run.exitCode).toBe(0);
    expect(firstPrompt(run.screen, "工具调用需要批准: write_file")).toEqual([
      "工具调用需要批准: write_file",
      "原因: File writes require explicit approval from chapter 3 onward",
      '参数: {"path":"note.txt","content":"hello, world\\n"}',
      '路径: "note.txt"',
      "允许本次调用? [y/N] y",
    ]);
    expect(run.screen).toContain(APPROVED);
    expect(await readFile(join(e2e.dir.workspace, "note.txt"), "utf8")).toBe("hello, world\n");
  });

  it("shows escape sequences and invisible marks in the arguments escaped, never raw", async () => {
    const content = "\u001b[2K\rApproved: harmless\u009b31m\u202eevil\u0007";
    e2e.server.script(
      chatToolCallsReply([
        { id: "call_w", name: "write_file", arguments: { path: "note.txt", content } },
      ]),
      chatTextReply("Finished."),
    );

    const run = await agentInPty(["--prompt", "Write a note"], ["n\r"]);

    expect(run.exitCode).toBe(0);
    expect(firstPrompt(run.screen, "Tool call needs approval: write_file")).toEqual([
      "Tool call needs approval: write_file",
      WRITE_REASON,
      'Arguments: {"path":"note.txt","content":"\\u001b[2K\\rApproved: harmless\\u{009b}31m\\u{202e}evil\\u0007"}',
      'Path: "note.txt"',
      `${QUESTION}n`,
    ]);
    // The prompt as written to the terminal, before readline draws the question.
    const start = run.raw.indexOf("Tool call needs approval: write_file");
    const end = run.raw.indexOf("\r\n", run.raw.indexOf("Arguments: ", start));
    const region = run.raw.slice(start, end);
    expect(start).toBeGreaterThan(-1);
    expect(region.includes("\u001b")).toBe(false);
    expect(region.replaceAll("\r\n", "\n").includes("\r")).toBe(false);
    expect(region.includes("\u0007")).toBe(false);
    expect(run.raw.includes("\u009b")).toBe(false);
    expect(run.raw.includes("\u202e")).toBe(false);
    expect(run.screen).toContain(DENIED);
    expect(existsSync(join(e2e.dir.workspace, "note.txt"))).toBe(false);
  });

  it("asks for every shell command, whatever its text, each time", async () => {
    e2e.server.script(
      chatToolCallsReply([
        { id: "call_1", name: "shell", arguments: { command: "ls" } },
        { id: "call_2", name: "shell", arguments: { command: "echo hi" } },
      ]),
      chatToolCallsReply([{ id: "call_3", name: "shell", arguments: { command: "ls" } }]),
      chatTextReply("Finished."),
    );

    const run = await agentInPty(["--prompt", "Look around"], ["n\r", "\r", "no\r"]);

    expect(run.exitCode).toBe(0);
    expect(count(run.raw, QUESTION)).toBe(3);
    const shellPrompts = run.screen.filter((line) => line === "Tool call needs approval: shell");
    expect(shellPrompts).toHaveLength(3);
    expect(
      run.screen.filter((line) => line === "Reason: Shell execution requires approval"),
    ).toHaveLength(3);
    expect(run.screen.filter((line) => line.startsWith("Arguments: "))).toEqual([
      'Arguments: {"command":"ls"}',
      'Arguments: {"command":"echo hi"}',
      'Arguments: {"command":"ls"}',
    ]);
    // The sandbox may add a `Runs in:` line to the prompt and a ` [sandbox: …]` suffix here; the
    // final arguments as executed follow as ` {cwd=… timeoutMs=… maxOutputBytes=… shell=…}`.
    const audit = run.screen.filter((line) => line.startsWith("[Permission] "));
    expect(audit).toHaveLength(3);
    for (const line of audit) {
      expect(line).toMatch(
        /^\[Permission\] shell: deny \(terminal-approval\) - User denied this tool call( \[[^\]]+\])? \{cwd=\S+ timeoutMs=120000 maxOutputBytes=51200 shell=\S+\}$/,
      );
    }
    const denied = "Error [permission_denied]: User denied this tool call";
    expect(toolResults(e2e.server.requests[2])).toEqual({
      call_1: denied,
      call_2: denied,
      call_3: denied,
    });
  });

  it("the tutorial's three calls: glob runs unasked, the write inside asks once, the write outside is refused unasked", async () => {
    await writeFile(join(e2e.dir.workspace, "README.md"), "# demo\n");
    e2e.server.script(
      chatToolCallsReply([{ id: "call_glob", name: "glob", arguments: { pattern: "*" } }]),
      WRITE_NOTE,
      chatToolCallsReply([
        { id: "call_out", name: "write_file", arguments: { path: "../outside.txt", content: "x" } },
      ]),
      chatTextReply("Done: one note written, one write refused."),
    );

    const run = await agentInPty(["--prompt", "Tutorial"], ["y\r"]);

    expect(run.exitCode).toBe(0);
    expect(count(run.raw, "Tool call needs approval")).toBe(1);
    expect(firstPrompt(run.screen, "Tool call needs approval: write_file")).toHaveLength(5);
    expect(run.screen.filter((line) => line.startsWith("[Permission] "))).toEqual([
      "[Permission] glob: allow (default) - No permission rule blocked the request",
      APPROVED,
      "[Permission] write_file: deny (workspace-boundary) - Writing outside the workspace is forbidden",
    ]);
    expect(toolResults(e2e.server.requests[3])).toEqual({
      call_glob: "README.md",
      call_w: "Wrote 13 UTF-8 bytes to note.txt",
      call_out: "Error [permission_denied]: Writing outside the workspace is forbidden",
    });
    expect(await readFile(join(e2e.dir.workspace, "note.txt"), "utf8")).toBe("hello, world\n");
    expect(existsSync(join(e2e.dir.root, "outside.txt"))).toBe(false);
    // The answer, then the closing line under it.
    expect(run.screen.at(-3)).toBe("  Done: one note written, one write refused.");
    expect(run.screen.at(-2)).toMatch(/^done in /u);
  });
});

describe("approval without a terminal", () => {
  it("denies at once when stdin is a pipe, even one that says y and stays open", async () => {
    e2e.server.script(WRITE_NOTE, chatTextReply("Finished."));

    const run = await startCli(["--workspace", e2e.dir.workspace, "--prompt", "Write a note"], {
      env: serverEnv(e2e.server.baseURL),
      input: "y\n",
      keepStdinOpen: true,
    }).done;

    expect(run.exitCode).toBe(4); // piped, every call denied (issue 27: exit 4)
    expect(run.stdout).toBe("Finished.\n");
    expect(run.stderr).not.toContain("Allow this call?");
    expect(linesOf(run.stderr)).toContain(
      "[Permission] write_file: deny (terminal-approval) - Interactive approval is unavailable (stdin is not a TTY)",
    );
    expect(toolResults(e2e.server.requests[1])).toEqual({
      call_w: "Error [permission_denied]: Interactive approval is unavailable (stdin is not a TTY)",
    });
    expect(existsSync(join(e2e.dir.workspace, "note.txt"))).toBe(false);
  });
});
