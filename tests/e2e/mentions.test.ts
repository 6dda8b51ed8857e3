/**
 * `@path` in a task or a conversation message attaches that file's text to the message the model
 * gets, down read_file's own path: the exact request content is asserted here. A link that leads
 * out of the workspace, or a file the person's own rule keeps from reads, is refused and its text
 * never reaches the model; a resumed run replays the attached text without reading it again.
 */
import { mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatErrorReply, chatTextReply } from "../support/chat-completions-server.js";
import { TMUX_REASON, isTmuxAvailable } from "../support/tmux.js";
import { useAgentFixture } from "./agent-fixture.js";
import { linesOf, serverEnv, startCli } from "./cli-process.js";

const e2e = useAgentFixture();

const SOURCE = "export const x = 1;\nexport const y = 2;\n";
const ATTACHED_SOURCE =
  "Attached by the person, the text of src/x.ts (2 lines) as read_file returns it:\n" +
  "```\nexport const x = 1;\nexport const y = 2;\n```";
const SECRET = "SECRET-TOKEN-4711";

/** The user message of the first request, the one the task or message became. */
function firstUserMessage(): string | undefined {
  return e2e.server.requests[0]?.messages.find((message) => message.role === "user")?.content;
}

function everythingSent(): string {
  return JSON.stringify(e2e.server.rawRequests.map((request) => request.body));
}

async function writeSource(): Promise<void> {
  await mkdir(join(e2e.dir.workspace, "src"));
  await writeFile(join(e2e.dir.workspace, "src", "x.ts"), SOURCE);
}

describe("@path mentions in a task", () => {
  it("attach the file's text after the task, and the screen says what was attached", async () => {
    await writeSource();
    e2e.server.script(chatTextReply("Fixed."));
    const run = await e2e.agent(["Fix @src/x.ts."]);
    expect(run.exitCode).toBe(0);
    expect(firstUserMessage()).toBe(`Fix @src/x.ts.\n\n${ATTACHED_SOURCE}`);
    expect(run.stderr).toContain("attached @src/x.ts (2 lines, 40 bytes)\n");
  });

  it("quote a path with spaces; leave email addresses and names that are no file as text", async () => {
    await writeFile(join(e2e.dir.workspace, "my notes.md"), "- buy ```milk```\n");
    e2e.server.script(chatTextReply("Read."));
    const task = 'Mail a@b.com about @"my notes.md", not @types/node';
    const run = await e2e.agent([task]);
    expect(run.exitCode).toBe(0);
    expect(firstUserMessage()).toBe(
      `${task}\n\nAttached by the person, the text of my notes.md (1 line) as read_file returns it:\n` +
        "````\n- buy ```milk```\n````",
    );
    expect(run.stderr).toContain("attached @my notes.md (1 line, 17 bytes)\n");
    expect(run.stderr).toContain(
      "not attached @types/node: no such file in the workspace; left as text\n",
    );
    expect(run.stderr).not.toContain("@b.com");
  });

  it("refuse a link that leads out of the workspace: its text never reaches the model", async () => {
    await writeFile(join(e2e.dir.root, "secret.txt"), `${SECRET}\n`);
    await symlink(join(e2e.dir.root, "secret.txt"), join(e2e.dir.workspace, "notes.txt"));
    for (const chapter of ["3", "4"]) {
      e2e.server.script(chatTextReply("Nothing attached."));
      const run = await e2e.agent(["--chapter", chapter, "Summarise @notes.txt"]);
      expect(run.exitCode).toBe(0);
      expect(firstUserMessage()).toBe("Summarise @notes.txt");
      expect(everythingSent()).not.toContain(SECRET);
      expect(run.stderr).toMatch(/not attached @notes\.txt: .*; left as text\n/u);
    }
  });

  it("refuse a file the person's own rule keeps from reads, before any text is read", async () => {
    await writeFile(join(e2e.dir.workspace, ".env"), `TOKEN=${SECRET}\n`);
    const config = join(e2e.dir.root, "config");
    await mkdir(join(config, "agent-harness"), { recursive: true });
    await writeFile(
      join(config, "agent-harness", "settings.json"),
      JSON.stringify({ rules: [{ behavior: "deny", tool: "read_file", path: ".env" }] }),
    );
    e2e.server.script(chatTextReply("Nothing attached."));
    const run = await e2e.agent(["--profile", "daily", "Check @.env"], {
      XDG_CONFIG_HOME: config,
    });
    expect(run.exitCode).toBe(0);
    expect(firstUserMessage()).toBe("Check @.env");
    expect(everythingSent()).not.toContain(SECRET);
    expect(run.stderr).toContain(
      "not attached @.env: permission_denied: Your settings file: deny read_file .env; left as text\n",
    );
  });

  it("refuse a binary file and one over the read limit, as read_file does", async () => {
    await writeFile(join(e2e.dir.workspace, "logo.png"), Buffer.from([0x89, 0x50, 0x00, 0x0a]));
    await writeFile(join(e2e.dir.workspace, "big.log"), "x".repeat(300 * 1024));
    e2e.server.script(chatTextReply("Nothing attached."));
    const run = await e2e.agent(["Look at @logo.png and @big.log"]);
    expect(run.exitCode).toBe(0);
    expect(firstUserMessage()).toBe("Look at @logo.png and @big.log");
    expect(run.stderr).toMatch(/not attached @logo\.png: binary_file: .*; left as text\n/u);
    expect(run.stderr).toMatch(/not attached @big\.log: file_too_large: .*; left as text\n/u);
  });

  it("are journaled with the task: a resumed run sends the text attached, never read again", async () => {
    await writeSource();
    const state = join(e2e.dir.root, "state");
    const env = serverEnv(e2e.server.baseURL, { AGENT_STATE_DIR: state });
    const argv = (...args: string[]) => ["--workspace", e2e.dir.workspace, ...args];
    e2e.server.script(chatErrorReply(400, "the provider refused"));
    const failed = await startCli(argv("Fix @src/x.ts"), { env }).done;
    expect(failed.exitCode).toBe(1);
    // Changed (and then gone) before the resume: the journal's copy is what is sent.
    await writeFile(join(e2e.dir.workspace, "src", "x.ts"), "changed\n");
    e2e.server.script(chatTextReply("Fixed."));
    const resumed = await startCli(["resume", ...argv()], { env }).done;
    expect(resumed.exitCode).toBe(0);
    expect(firstUserMessage()).toBe(`Fix @src/x.ts\n\n${ATTACHED_SOURCE}`);
    expect(resumed.stderr).not.toContain("attached @");
    const workspaces = join(state, "workspaces");
    const runs = join(workspaces, (await readdir(workspaces))[0] ?? "", "runs");
    const journal = (await readdir(runs)).find((name) => name.endsWith(".jsonl")) ?? "";
    const [started] = linesOf(await readFile(join(runs, journal), "utf8"));
    expect(JSON.parse(started ?? "{}")).toMatchObject({
      type: "run_started",
      prompt: `Fix @src/x.ts\n\n${ATTACHED_SOURCE}`,
    });
  });
});

describe.skipIf(!isTmuxAvailable())(`@path mentions in a conversation ${TMUX_REASON}`, () => {
  it("attach to the message that names them, shown on the screen", async () => {
    await writeSource();
    e2e.server.script(chatTextReply("First."), chatTextReply("Second."));
    await e2e.inTerminal([], async (terminal) => {
      await terminal.waitForScreen((rows) => rows.includes(">"));
      terminal.type("Hello", "Enter");
      await terminal.waitForScreen((rows) => rows.includes("  First."));
      terminal.type("Now look at @src/x.ts", "Enter");
      await terminal.waitForScreen((rows) => rows.includes("  Second."));
      expect(terminal.rows()).toContain("attached @src/x.ts (2 lines, 40 bytes)");
      terminal.type("/exit", "Enter");
      await terminal.waitForExit();
    });
    expect(e2e.server.requests[1]?.messages.slice(1)).toEqual([
      { role: "user", content: "Hello" },
      { role: "assistant", content: "First." },
      { role: "user", content: `Now look at @src/x.ts\n\n${ATTACHED_SOURCE}` },
    ]);
  });
});
