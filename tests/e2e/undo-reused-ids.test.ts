/**
 * `/undo` through the real CLI when a call id comes back in one run: after `/clear` the
 * conversation no longer holds the ids it used, and a server that numbers calls per reply sends
 * `call_0` again. Each call is still taken back, once, and the journal says so to `agent undo`.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { TMUX_REASON, isTmuxAvailable, type TmuxTerminal } from "../support/tmux.js";
import { useAgentFixture } from "./agent-fixture.js";
import { linesOf, runCli, serverEnv } from "./cli-process.js";

const e2e = useAgentFixture();

const lastRowIsPrompt = (rows: readonly string[]): boolean =>
  rows.filter((row) => row !== "").at(-1) === ">";
const shows = (row: string) => (rows: readonly string[]) =>
  rows.includes(row) && lastRowIsPrompt(rows);

const REMOVED_FIRST = "agent: undid write_file (call_0): removed first.txt, which the call created";
const REMOVED_SECOND =
  "agent: undid write_file (call_0): removed second.txt, which the call created";
const NOT_TOLD =
  "agent: the model is not told of the undo; say so in your next message if it matters";
const CLEARED = "agent: history cleared; the next line starts afresh in this session";
/** What `agent undo` adds when the newest run had nothing left: the person may mean an older one. */
const OLDER_RUN = "agent: an older run's calls: agent undo --run ID (agent runs lists them)";
const NOTHING =
  "agent: nothing to undo in this run: no call in it changed anything, or each that did is undone already";

/** Two turns, each writing one file with the call id `call_0`. */
function scriptTwoWrites(): void {
  const writeOf = (path: string) =>
    chatToolCallsReply([
      { id: "call_0", name: "write_file", arguments: { path, content: `${path}\n` } },
    ]);
  e2e.server.script(
    writeOf("first.txt"),
    chatTextReply("Wrote first."),
    writeOf("second.txt"),
    chatTextReply("Wrote second."),
  );
}

async function turn(terminal: TmuxTerminal, line: string, answer: string): Promise<void> {
  terminal.type(line, "Enter");
  await terminal.waitForScreen(shows(`  ${answer}`));
}

/**
 * Sends a slash command and waits for its output to end with `last` and the prompt to return: the
 * rows it printed, blank rows and the prompt left out.
 */
async function command(terminal: TmuxTerminal, line: string, last: string): Promise<string[]> {
  const echoed = `> ${line}`;
  const before = terminal.rows().filter((row) => row === echoed).length;
  terminal.type(line, "Enter");
  const rows = await terminal.waitForScreen((shown) => {
    const printed = shown.slice(shown.lastIndexOf(echoed) + 1);
    const times = shown.filter((row) => row === echoed).length;
    return times > before && printed.includes(last) && lastRowIsPrompt(shown);
  });
  return rows.slice(rows.lastIndexOf(echoed) + 1).filter((row) => row !== "" && row !== ">");
}

const workspaceHas = (name: string): boolean => existsSync(join(e2e.dir.workspace, name));

async function undoFromShell(): Promise<string[]> {
  const run = await runCli(["undo", "--workspace", e2e.dir.workspace], {
    env: serverEnv(e2e.server.baseURL),
  });
  expect(run.exitCode).toBe(0);
  return linesOf(run.stderr).slice(1);
}

describe.skipIf(!isTmuxAvailable())(`/undo with a call id used again ${TMUX_REASON}`, () => {
  it("after an undo and /clear, /undo takes back the newer write of the id", async () => {
    scriptTwoWrites();
    await e2e.inTerminal(
      ["--chapter", "2"],
      async (terminal) => {
        await terminal.waitForScreen((rows) => rows.includes(">"));
        await turn(terminal, "write first", "Wrote first.");
        expect(await command(terminal, "/undo", NOT_TOLD)).toEqual([REMOVED_FIRST, NOT_TOLD]);
        expect(await command(terminal, "/clear", CLEARED)).toEqual([CLEARED]);
        await turn(terminal, "write second", "Wrote second.");
        expect(workspaceHas("second.txt")).toBe(true);
        expect(await command(terminal, "/undo", NOT_TOLD)).toEqual([REMOVED_SECOND, NOT_TOLD]);
        expect(await command(terminal, "/undo", NOTHING)).toEqual([NOTHING]);
        terminal.type("/exit", "Enter");
        await terminal.waitForExit();
      },
      { columns: 160, rows: 40 },
    );
    expect(workspaceHas("first.txt")).toBe(false);
    expect(workspaceHas("second.txt")).toBe(false);
    expect(await undoFromShell()).toEqual([NOTHING, OLDER_RUN]);
  });

  it("after /clear, /undo 2 takes back both writes of the id, newest first", async () => {
    scriptTwoWrites();
    await e2e.inTerminal(
      ["--chapter", "2"],
      async (terminal) => {
        await terminal.waitForScreen((rows) => rows.includes(">"));
        await turn(terminal, "write first", "Wrote first.");
        expect(await command(terminal, "/clear", CLEARED)).toEqual([CLEARED]);
        await turn(terminal, "write second", "Wrote second.");
        expect(await command(terminal, "/undo 2", NOT_TOLD)).toEqual([
          REMOVED_SECOND,
          REMOVED_FIRST,
          NOT_TOLD,
        ]);
        terminal.type("/exit", "Enter");
        await terminal.waitForExit();
      },
      { columns: 160, rows: 40 },
    );
    expect(workspaceHas("first.txt")).toBe(false);
    expect(workspaceHas("second.txt")).toBe(false);
    expect(await undoFromShell()).toEqual([NOTHING, OLDER_RUN]);
  });
});
