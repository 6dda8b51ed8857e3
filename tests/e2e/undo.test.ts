/**
 * `agent undo` and `/undo` through the real CLI against a scripted model: a write and an edit
 * taken back byte for byte, a file edited since refused, a link planted since refused with
 * nothing outside touched, and (the acceptance) `/undo` after kill -9 between a write's journal
 * record and the write itself.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, readdir, rename, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { PTY_REASON, PtySession, isPtyAvailable } from "../support/pty.js";
import { useAgentFixture } from "./agent-fixture.js";
import { linesOf, runCli, serverEnv, type CliRun } from "./cli-process.js";

const e2e = useAgentFixture();

/** Bytes the tools must give back exactly: a BOM, CRLF line ends, non-ASCII text. */
const ORIGINAL = "\uFEFFline one\r\nclé 🙂\r\nlast line without an end";

function undo(args: readonly string[] = []): Promise<CliRun> {
  return runCli(["undo", "--workspace", e2e.dir.workspace, ...args], {
    env: serverEnv(e2e.server.baseURL),
  });
}

/** Chapter 2: file writes run unasked, so a piped run makes them. */
async function runTask(calls: Parameters<typeof chatToolCallsReply>[0]): Promise<CliRun> {
  e2e.server.script(chatToolCallsReply(calls), chatTextReply("Done."));
  const run = await e2e.agent(["--chapter", "2", "--prompt", "Change the files"]);
  expect(run.stderr).not.toContain("agent: The");
  expect(run.exitCode).toBe(0);
  return run;
}

const workspaceFile = (name: string): string => join(e2e.dir.workspace, name);

describe("agent undo", () => {
  it("takes back a write and an edit byte for byte, then has nothing left to undo", async () => {
    await writeFile(workspaceFile("notes.txt"), ORIGINAL);
    await runTask([
      {
        id: "call_write",
        name: "write_file",
        arguments: { path: "new/made.txt", content: "hi\n" },
      },
      {
        id: "call_edit",
        name: "edit_file",
        arguments: { path: "notes.txt", old_string: "clé", new_string: "key" },
      },
    ]);
    expect(await readFile(workspaceFile("notes.txt"), "utf8")).toContain("key 🙂");
    const audit = join(e2e.dir.root, "undo-audit.jsonl");

    const undone = await undo(["2", "--audit-log", audit]);
    expect(undone.exitCode).toBe(0);
    expect(linesOf(undone.stderr).slice(1)).toEqual([
      "agent: undid edit_file (call_edit): notes.txt holds again what it held before the call",
      "agent: undid write_file (call_write): removed new/made.txt, which the call created, and the folders it made for it, left empty (new)",
    ]);
    expect(await readFile(workspaceFile("notes.txt"))).toEqual(Buffer.from(ORIGINAL));
    expect(existsSync(workspaceFile("new"))).toBe(false);
    const lines = linesOf(await readFile(audit, "utf8")).map(
      (line) => JSON.parse(line) as { callId: string; undo: { result: string } },
    );
    expect(lines.map((line) => [line.callId, line.undo.result])).toEqual([
      ["call_edit", "restored"],
      ["call_write", "restored"],
    ]);

    // Journaled: a second undo does not take the same calls again.
    const again = await undo();
    expect(again.exitCode).toBe(0);
    expect(linesOf(again.stderr).slice(1)).toEqual([
      "agent: nothing to undo in this run: no call in it changed anything, or each that did is undone already",
      "agent: an older run's calls: agent undo --run ID (agent runs lists them)",
    ]);
    expect(await readFile(workspaceFile("notes.txt"))).toEqual(Buffer.from(ORIGINAL));
  });

  it("refuses a file edited since the call, says why, and leaves it as it is", async () => {
    await writeFile(workspaceFile("a.txt"), "before\n");
    await runTask([
      { id: "call_w", name: "write_file", arguments: { path: "a.txt", content: "model\n" } },
    ]);
    await writeFile(workspaceFile("a.txt"), "someone else's edit\n");

    const undone = await undo();
    expect(undone.exitCode).toBe(1);
    expect(linesOf(undone.stderr).slice(1)).toEqual([
      "agent: not undone: write_file (call_w): a.txt changed since the call (it no longer holds what the call wrote: someone else edited it); it was left as it is",
    ]);
    expect(await readFile(workspaceFile("a.txt"), "utf8")).toBe("someone else's edit\n");
  });

  it("refuses a file whose directory became a link out of the workspace, and touches nothing there", async () => {
    await runTask([
      { id: "call_w", name: "write_file", arguments: { path: "sub/a.txt", content: "model\n" } },
    ]);
    // The directory moves outside, a link takes its place: the bytes there are the call's own.
    const outside = join(e2e.dir.root, "elsewhere");
    await mkdir(outside);
    await rename(workspaceFile("sub"), join(outside, "sub"));
    await symlink(join(outside, "sub"), workspaceFile("sub"));

    const undone = await undo();
    expect(undone.exitCode).toBe(1);
    expect(linesOf(undone.stderr).slice(1)).toEqual([
      "agent: not undone: write_file (call_w): sub/a.txt: path resolves outside the workspace: sub/a.txt; it was left as it is",
    ]);
    expect(await readdir(join(outside, "sub"))).toEqual(["a.txt"]);
    expect(await readFile(join(outside, "sub", "a.txt"), "utf8")).toBe("model\n");
  });

  it("names the newest older run with changes to undo when the newest changed nothing", async () => {
    await runTask([
      { id: "call_w", name: "write_file", arguments: { path: "a.txt", content: "x" } },
    ]);
    await runTask([{ id: "call_r", name: "read_file", arguments: { path: "a.txt" } }]);
    const runs = await runCli(["runs", "--workspace", e2e.dir.workspace], {
      env: serverEnv(e2e.server.baseURL),
    });
    // Newest first: the reading run, then the writing one.
    const [, older] = [...runs.stdout.matchAll(/^(\d{8}T\d{6}Z-[0-9a-f]{8})/gmu)].map(
      (match) => match[1],
    );
    const undone = await undo();
    expect(undone.exitCode).toBe(0);
    expect(linesOf(undone.stderr).slice(1)).toEqual([
      "agent: nothing to undo in this run: no call in it changed anything, or each that did is undone already",
      `agent: run ${String(older)} has changes to undo: agent undo --run ${String(older)}`,
    ]);
  });

  it("says so when the run changed nothing, and refuses a count that is not one", async () => {
    await runTask([{ id: "call_r", name: "read_file", arguments: { path: "missing.txt" } }]);
    const undone = await undo();
    expect(undone.exitCode).toBe(0);
    expect(undone.stderr).toContain(
      "agent: nothing to undo in this run: no call in it changed anything, or each that did is undone already",
    );
    const bad = await undo(["zero"]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toBe(
      "agent: agent undo takes one number of calls, from 1 to 999 (see agent undo --help)\n",
    );
  });
});

describe.skipIf(!isPtyAvailable())(`agent undo after approved calls ${PTY_REASON}`, () => {
  it("says plainly that the last call, a shell command, cannot be undone, and takes back the write before it", async () => {
    const command = "echo from-the-shell > shell-made.txt";
    e2e.server.script(
      chatToolCallsReply([
        { id: "call_w", name: "write_file", arguments: { path: "a.txt", content: "model\n" } },
      ]),
      chatToolCallsReply([{ id: "call_sh", name: "shell", arguments: { command } }]),
      chatTextReply("Done."),
    );
    // Chapter 3: both calls ask, and both are approved.
    const session = PtySession.start(
      e2e.argv(["--chapter", "3", "--sandbox", "off", "--prompt", "Write, then run"]),
      { env: serverEnv(e2e.server.baseURL) },
    );
    await session.waitForOutput("[y/N] ");
    session.type("y\r");
    await session.waitForOutput("[y/N] ");
    session.type("y\r");
    expect((await session.exited).exitCode).toBe(0);
    expect(await readFile(workspaceFile("shell-made.txt"), "utf8")).toBe("from-the-shell\n");

    // One undo takes back the write: the command after it is named, and left as it ran.
    const first = await undo();
    expect(first.exitCode).toBe(0);
    expect(linesOf(first.stderr).slice(1)).toEqual([
      `agent: cannot undo shell \`${command}\` (call_sh): it ran a command, and a command's effects cannot be undone; it is left as it ran`,
      "agent: undid write_file (call_w): removed a.txt, which the call created",
    ]);
    expect(await readFile(workspaceFile("shell-made.txt"), "utf8")).toBe("from-the-shell\n");
    expect(existsSync(workspaceFile("a.txt"))).toBe(false);
    const second = await undo();
    expect(second.stderr).toContain(
      "agent: nothing to undo in this run: no call in it changed anything, or each that did is undone already",
    );
  });
});

describe.skipIf(!isPtyAvailable())(`/undo after kill -9 ${PTY_REASON}`, () => {
  it("restores byte for byte when the process died between a write's journal record and the write", async () => {
    await writeFile(workspaceFile("notes.txt"), ORIGINAL);
    e2e.server.script(
      chatToolCallsReply([
        {
          id: "call_edit",
          name: "edit_file",
          arguments: { path: "notes.txt", old_string: "clé", new_string: "key" },
        },
        {
          id: "call_write",
          name: "write_file",
          arguments: { path: "notes.txt", content: "rewritten\n" },
        },
      ]),
    );
    // The second write's file_before is on disk, then SIGKILL: the write never starts.
    const killed = await e2e.agent(["--chapter", "2", "--prompt", "Change the notes"], {
      AGENT_TEST_KILL_AFTER_RECORD: "file_before:2",
    });
    expect(killed.signal).toBe("SIGKILL");
    const edited = ORIGINAL.replace("clé", "key");
    expect(await readFile(workspaceFile("notes.txt"), "utf8")).toBe(edited);

    // Resumed on a terminal: the interrupted write is reported unknown, the model answers, and
    // the run goes on as a conversation, where /undo takes back both calls.
    e2e.server.script(chatTextReply("Stopped."));
    const session = PtySession.start(
      [...e2e.argv([]).slice(0, 2), "resume", "--workspace", e2e.dir.workspace],
      { env: serverEnv(e2e.server.baseURL) },
    );
    await session.waitForOutput("Stopped.");
    session.type("/undo 2\r");
    await session.waitForOutput("undid edit_file (call_edit)");
    session.type("/exit\r");
    const result = await session.exited;
    expect(result.output).toContain(
      "agent: write_file (call_write): notes.txt holds what it held before the call (the write never happened); nothing to undo",
    );
    expect(result.output).toContain(
      "agent: undid edit_file (call_edit): notes.txt holds again what it held before the call",
    );
    expect(await readFile(workspaceFile("notes.txt"))).toEqual(Buffer.from(ORIGINAL));
  });
});
