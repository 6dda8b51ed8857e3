/**
 * On a real terminal (tmux): text that arrives in one read, as an input method delivers it or as a
 * paste does where the terminal has no bracketed paste, goes in at the cursor, and a line that
 * wraps is redrawn in place when the cursor goes back to its start.
 */
import { describe, expect, it } from "vitest";
import { chatTextReply } from "../support/chat-completions-server.js";
import { TMUX_REASON, isTmuxAvailable } from "../support/tmux.js";
import { useAgentFixture } from "./agent-fixture.js";

const e2e = useAgentFixture();

const shownRows = (rows: readonly string[]): string[] => rows.filter((row) => row !== "");
const lastRowIsPrompt = (rows: readonly string[]): boolean => shownRows(rows).at(-1) === ">";
const shows = (text: string) => (rows: readonly string[]) =>
  rows.some((row) => row.includes(text)) && lastRowIsPrompt(rows);
/** Terminal cells: a CJK character takes two. */
const cells = (text: string): number =>
  Array.from(text).reduce((sum, char) => sum + (/\p{Script=Han}/u.test(char) ? 2 : 1), 0);

describe.skipIf(!isTmuxAvailable())(`conversation input on a real terminal ${TMUX_REASON}`, () => {
  it("text sent in one read after Left or Home goes in at the cursor", async () => {
    const cases = [
      { typed: "fix the bug", key: "Left", chunk: "ab", sent: "fix the buabg" },
      { typed: "abc def", key: "Home", chunk: "XYZ", sent: "XYZabc def" },
      { typed: "修复这个函数", key: "Home", chunk: "请你", sent: "请你修复这个函数" },
    ];
    e2e.server.script(...cases.map((_, turn) => chatTextReply(`Turn ${String(turn + 1)}.`)));
    const lines: string[] = [];
    await e2e.inTerminal([], async (terminal) => {
      await terminal.waitForScreen(lastRowIsPrompt);
      for (const [turn, { typed, key, chunk }] of cases.entries()) {
        terminal.type("-l", typed);
        await terminal.waitForScreen((rows) => shownRows(rows).at(-1) === `> ${typed}`);
        terminal.type(key);
        const column = cells(`> ${key === "Home" ? "" : typed.slice(0, -1)}`);
        await terminal.waitForScreen((_, cursor) => cursor.column === column);
        terminal.type("-l", chunk);
        const rows = await terminal.waitForScreen(
          (shown) => cells(shownRows(shown).at(-1) ?? "") === cells(`> ${typed}${chunk}`),
        );
        lines.push(shownRows(rows).at(-1) ?? "");
        terminal.type("Enter");
        await terminal.waitForScreen(shows(`  Turn ${String(turn + 1)}.`));
      }
      terminal.type("/exit", "Enter");
      await terminal.waitForExit();
    });
    expect(lines).toEqual(cases.map(({ sent }) => `> ${sent}`));
    expect(e2e.server.requests.map((request) => request.messages.at(-1))).toEqual(
      cases.map(({ sent }) => ({ role: "user", content: sent })),
    );
  });

  it("Ctrl-A on a line that wraps redraws it in place, not a row lower", async () => {
    e2e.server.script(chatTextReply("Read it."));
    const long = `${"word ".repeat(19)}end`;
    await e2e.inTerminal([], async (terminal) => {
      await terminal.waitForScreen(lastRowIsPrompt);
      terminal.type("-l", long);
      await terminal.waitForScreen((rows) => shownRows(rows).at(-1)?.endsWith("end") === true);
      terminal.type("C-a");
      const rows = await terminal.waitForScreen(
        (shown, cursor) => cursor.column === 2 && shown[cursor.row]?.startsWith("> word") === true,
      );
      // 80 columns: the prompt's row, then the rest; no earlier copy of the first row above.
      expect(shownRows(rows).slice(-2)).toEqual([`> ${long.slice(0, 78)}`, long.slice(78)]);
      expect(rows.filter((row) => row.startsWith("> word"))).toHaveLength(1);
      terminal.type("Enter");
      await terminal.waitForScreen(shows("  Read it."));
      terminal.type("/exit", "Enter");
      await terminal.waitForExit();
    });
    expect(e2e.server.requests[0]?.messages.at(-1)).toEqual({ role: "user", content: long });
  });
});
