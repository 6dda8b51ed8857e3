/**
 * `agent` with no task on a terminal (tmux): a conversation, each line a turn of one history.
 */
import { describe, expect, it } from "vitest";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  NEVER_ANSWER,
  chatTextReply,
  chatToolCallsReply,
} from "../support/chat-completions-server.js";
import { TMUX_REASON, type TmuxTerminal, isTmuxAvailable } from "../support/tmux.js";
import { useAgentFixture } from "./agent-fixture.js";

const e2e = useAgentFixture();

const prompted = (rows: readonly string[]): boolean => rows.at(-1) === ">" || rows.includes(">");
const lastRowIsPrompt = (rows: readonly string[]): boolean =>
  rows.filter((row) => row !== "").at(-1) === ">";
/** The turn's answer is on the screen and the prompt waits below it. */
const answered = (row: string) => (rows: readonly string[]) =>
  rows.includes(row) && lastRowIsPrompt(rows);

/** `agent` with no task: `turns` runs once its first prompt shows, then the session must end. */
function converse(turns: (terminal: TmuxTerminal) => Promise<void>): Promise<void> {
  return e2e.inTerminal([], async (terminal) => {
    await terminal.waitForScreen(prompted);
    await turns(terminal);
    await terminal.waitForExit();
  });
}

/**
 * Sends `line`, stops its turn with Ctrl-C once the server has had `requests` requests, then sends
 * "Again", whose answer is "Still here.".
 */
async function stopTurnThenGoOn(
  terminal: TmuxTerminal,
  line: string,
  requests: number,
): Promise<void> {
  terminal.type(line, "Enter");
  await e2e.server.waitForRequests(requests);
  terminal.type("C-c");
  await terminal.waitForScreen(answered("agent: turn stopped"));
  terminal.type("Again", "Enter");
  await terminal.waitForScreen(answered("  Still here."));
}

describe.skipIf(!isTmuxAvailable())(`a conversation on a real terminal ${TMUX_REASON}`, () => {
  it("two turns share one history; /exit ends the session", async () => {
    e2e.server.script(chatTextReply("First answer."), chatTextReply("Second answer."));
    await converse(async (terminal) => {
      terminal.type("What is here?", "Enter");
      await terminal.waitForScreen(answered("  First answer."));
      terminal.type("And then?", "Enter");
      await terminal.waitForScreen(answered("  Second answer."));
      terminal.type("/exit", "Enter");
    });
    const second = e2e.server.requests[1];
    expect(second?.messages.slice(1)).toEqual([
      { role: "user", content: "What is here?" },
      { role: "assistant", content: "First answer." },
      { role: "user", content: "And then?" },
    ]);
    expect(e2e.server.requests).toHaveLength(2);
  });

  it("Ctrl-C stops a turn and the session goes on; Ctrl-D ends it", async () => {
    e2e.server.script(NEVER_ANSWER, chatTextReply("Still here."));
    await converse(async (terminal) => {
      await stopTurnThenGoOn(terminal, "Hang", 1);
      terminal.type("C-d");
    });
    // The stopped turn keeps the person's line; it had nothing else to keep.
    expect(e2e.server.requests[1]?.messages.slice(1)).toEqual([
      { role: "user", content: "Hang" },
      { role: "user", content: "Again" },
    ]);
  });

  it("a stopped turn's call that ran stays in the history, with its result", async () => {
    await writeFile(join(e2e.dir.workspace, "notes.md"), "notes\n");
    e2e.server.script(
      chatToolCallsReply([{ id: "g1", name: "glob", arguments: { pattern: "*.md" } }]),
      NEVER_ANSWER,
      chatTextReply("Still here."),
    );
    await converse(async (terminal) => {
      await stopTurnThenGoOn(terminal, "Find notes", 2);
      terminal.type("/exit", "Enter");
    });
    expect(e2e.server.requests[2]?.messages.slice(1)).toEqual([
      { role: "user", content: "Find notes" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "g1",
            type: "function",
            function: { name: "glob", arguments: '{"pattern":"*.md"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "g1", content: "notes.md" },
      { role: "user", content: "Again" },
    ]);
  });
});
