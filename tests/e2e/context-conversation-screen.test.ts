/**
 * Issue 26 in a conversation on a real terminal (tmux): /context, /compact and /clear, and a turn
 * refused as too long even after compaction ends with one line while the next turn works.
 */
import { describe, expect, it } from "vitest";
import { chatErrorReply, chatTextReply } from "../support/chat-completions-server.js";
import { TMUX_REASON, type TmuxTerminal, isTmuxAvailable } from "../support/tmux.js";
import { useAgentFixture } from "./agent-fixture.js";
import { SUMMARY_PREFIX } from "./long-task-model.js";

const e2e = useAgentFixture();

const lastRowIsPrompt = (rows: readonly string[]): boolean =>
  rows.filter((row) => row !== "").at(-1) === ">";
const shows = (start: string) => (rows: readonly string[]) =>
  rows.some((row) => row.startsWith(start)) && lastRowIsPrompt(rows);

function converse(turns: (terminal: TmuxTerminal) => Promise<void>): Promise<void> {
  return e2e.inTerminal([], async (terminal) => {
    await terminal.waitForScreen((rows) => rows.includes(">"));
    await turns(terminal);
    await terminal.waitForExit();
  });
}

const refused = () =>
  chatErrorReply(400, "This model's maximum context length is 8192 tokens.", {
    code: "context_length_exceeded",
  });

describe.skipIf(!isTmuxAvailable())(`context in a conversation ${TMUX_REASON}`, () => {
  it("/context shows the window, /compact summarizes older turns, /clear starts afresh", async () => {
    e2e.server.script(
      // Long enough that a summary makes the history smaller: a short one is left as it is.
      chatTextReply(`First answer. ${"Some detail about the first question. ".repeat(40)}`),
      chatTextReply("Second answer."),
      chatTextReply("They asked twice."),
      chatTextReply("Third answer."),
    );
    await converse(async (terminal) => {
      terminal.type("First", "Enter");
      await terminal.waitForScreen(shows("  First answer."));
      terminal.type("Second", "Enter");
      await terminal.waitForScreen(shows("  Second answer."));
      terminal.type("/context", "Enter");
      await terminal.waitForScreen(shows("  tool definitions"));
      terminal.type("/compact", "Enter");
      await terminal.waitForScreen(shows("context compacted on /compact"));
      terminal.type("/clear", "Enter");
      await terminal.waitForScreen(shows("agent: history cleared"));
      terminal.type("Third", "Enter");
      await terminal.waitForScreen(shows("  Third answer."));
      terminal.type("/exit", "Enter");
    });
    const [, , summary, third] = e2e.server.requests;
    expect(summary?.messages[0]?.content).toMatch(new RegExp(`^${SUMMARY_PREFIX}`));
    expect(summary?.tools).toBeUndefined();
    expect(third?.messages.map((message) => message.role)).toEqual(["system", "user"]);
    expect(third?.messages[1]).toEqual({ role: "user", content: "Third" });
  });

  it("/compact after one long answer sends its head and tail; the figures match /context's rows", async () => {
    // Issue 41: a 6 KB answer did not fit the summary's room whole and everything was left out.
    const long = `HEAD-OF-ANSWER ${"Long detail here. ".repeat(340)}TAIL-OF-ANSWER`;
    e2e.server.script(
      chatTextReply(long),
      chatTextReply("Second answer."),
      chatTextReply("Third answer."),
      chatTextReply("The summary."),
    );
    let compacted: string[] = [];
    let context: string[] = [];
    await converse(async (terminal) => {
      terminal.type("First", "Enter");
      await terminal.waitForScreen(
        (rows) => rows.some((row) => row.includes("TAIL-OF-ANSWER")) && lastRowIsPrompt(rows),
      );
      terminal.type("Second", "Enter");
      await terminal.waitForScreen(shows("  Second answer."));
      terminal.type("Third", "Enter");
      await terminal.waitForScreen(shows("  Third answer."));
      terminal.type("/compact", "Enter");
      compacted = await terminal.waitForScreen(shows("context compacted on /compact"));
      terminal.type("/context", "Enter");
      context = await terminal.waitForScreen(shows("  tool definitions"));
      terminal.type("/exit", "Enter");
    });
    const summary = e2e.server.requests[3]?.messages[1]?.content ?? "";
    expect(summary).toContain("ASSISTANT: HEAD-OF-ANSWER Long detail here.");
    expect(summary).toContain("Long detail here. TAIL-OF-ANSWER");
    expect(summary).not.toContain("left out: too long");
    const after = /→ ~(\d+) tokens/.exec(compacted.join("\n"))?.[1];
    const total = /^context: (\d+) of \d+ tokens/m.exec(context.join("\n"))?.[1];
    const rows = context
      .map((row) => /^ {2}\S.*\s+\d+\s+~(\d+) tokens$/.exec(row)?.[1])
      .filter((tokens) => tokens !== undefined)
      .map(Number);
    expect(after).toBeDefined();
    expect(total).toBe(after);
    expect(rows.reduce((sum, tokens) => sum + tokens, 0)).toBe(Number(total));
  });

  it("a turn still too long after compaction ends with one line; the next turn works", async () => {
    const long = `First answer. ${"More detail. ".repeat(60)}`;
    e2e.server.script(
      chatTextReply(long),
      refused(),
      chatTextReply("Short summary."),
      refused(),
      chatTextReply("Third answer."),
    );
    await converse(async (terminal) => {
      terminal.type("First", "Enter");
      await terminal.waitForScreen(shows("  First answer. More detail."));
      terminal.type("Second", "Enter");
      await terminal.waitForScreen(shows("agent: The conversation does not fit"));
      terminal.type("Third", "Enter");
      await terminal.waitForScreen(shows("  Third answer."));
      terminal.type("/exit", "Enter");
    });
    expect(e2e.server.requests).toHaveLength(5);
    // The failed turn left the history as the last finished turn left it.
    expect(e2e.server.requests[4]?.messages.slice(1)).toEqual([
      { role: "user", content: "First" },
      { role: "assistant", content: long },
      { role: "user", content: "Third" },
    ]);
    // One compaction and one retry: the retry went out with the summary in place of the answer.
    expect(e2e.server.requests[2]?.messages[0]?.content).toMatch(new RegExp(`^${SUMMARY_PREFIX}`));
    expect(e2e.server.requests[3]?.messages.slice(1).map((message) => message.content)).toEqual([
      "First",
      expect.stringMatching(/^\[Summary of the earlier part of this conversation/),
      "Second",
    ]);
  });
});
