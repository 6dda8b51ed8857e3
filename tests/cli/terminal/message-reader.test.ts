import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import {
  MessageReader,
  type HistoryStore,
} from "../../../src/cli/terminal/input/message-reader.js";
import { PASTE_END, PASTE_START } from "../../../src/cli/terminal/input/paste-decoder.js";
import { terminalScreenLines } from "../../support/pty.js";

/** A terminal's input: a stream that says it is a TTY and records raw mode. */
function fakeTerminal() {
  const input = Object.assign(new PassThrough(), {
    isTTY: true,
    isRaw: false,
    setRawMode(mode: boolean) {
      input.isRaw = mode;
      return input;
    },
  });
  const output = new PassThrough();
  let shown = "";
  output.on("data", (chunk: Buffer) => (shown += chunk.toString()));
  return { input, output, shown: () => shown };
}

function memoryStore(entries: string[] = []): HistoryStore & { added: string[] } {
  const added: string[] = [];
  return { entries, added, add: (line) => void added.push(line) };
}

describe("MessageReader", () => {
  it("a paste is one message: newlines kept, a placeholder shown, bracketed paste on then off", async () => {
    const terminal = fakeTerminal();
    const reader = new MessageReader(terminal);
    const read = reader.read();
    terminal.input.write(`see ${PASTE_START}a\rb\rc${PASTE_END}\r`);
    expect(await read).toEqual({
      text: "see a\nb\nc",
      typed: "see [pasted 3 lines]",
      pasted: true,
    });
    expect(terminal.shown()).toContain("\u001b[?2004h");
    expect(terminal.shown()).toContain("see [pasted 3 lines]");
    expect(terminal.shown().endsWith("\u001b[?2004l")).toBe(true);
    expect(terminal.input.isRaw).toBe(false);
  });

  it("pasted escape sequences and Ctrl-C are text: never written to the terminal, never acted on", async () => {
    const terminal = fakeTerminal();
    const read = new MessageReader(terminal).read();
    terminal.input.write(`${PASTE_START}\u001b[2J\u0003\u0004${PASTE_END}\r`);
    expect(await read).toMatchObject({ text: "\u001b[2J\u0003\u0004", typed: "[pasted 1 line]" });
    expect(terminal.shown()).not.toContain("\u001b[2J");
  });

  it("a 1 MB paste is refused with a message, and the prompt goes on", async () => {
    const terminal = fakeTerminal();
    const read = new MessageReader(terminal).read();
    terminal.input.write(`${PASTE_START}${"z".repeat(1024 * 1024)}${PASTE_END}`);
    terminal.input.write("short\r");
    expect(await read).toEqual({ text: "short", typed: "short", pasted: false });
    expect(terminal.shown()).toContain(
      "agent: paste not taken: 1,048,576 characters, more than the 262,144 a message may hold; save it to a file in the workspace and name the file instead",
    );
  });

  it("a trailing backslash and Alt-Enter go on on the next line", async () => {
    const terminal = fakeTerminal();
    const read = new MessageReader(terminal).read();
    terminal.input.write("one\\\rtwo\u001b\rthree\r");
    expect(await read).toEqual({
      text: "one\ntwo\nthree",
      typed: "one\ntwo\nthree",
      pasted: false,
    });
    expect(terminal.shown()).toContain("… ");
  });

  it("Ctrl-C clears a message of several lines; on an empty line it ends", async () => {
    const terminal = fakeTerminal();
    const reader = new MessageReader(terminal);
    const first = reader.read();
    terminal.input.write("dropped\\\r");
    terminal.input.write("\u0003");
    terminal.input.write("kept\r");
    expect(await first).toMatchObject({ text: "kept" });
    const second = reader.read();
    terminal.input.write("\u0003");
    expect(await second).toBeUndefined();
  });

  it("Up recalls the stored history; typed lines are stored, lines showing a paste are not", async () => {
    // A terminal that can move its cursor: under TERM=dumb (the developer's own, say an editor's
    // shell) Node's readline keeps no history, and Up does nothing.
    vi.stubEnv("TERM", "xterm-256color");
    onTestFinished(() => {
      vi.unstubAllEnvs();
    });
    const terminal = fakeTerminal();
    const store = memoryStore(["older", "newest"]);
    const reader = new MessageReader({ ...terminal, store });
    const first = reader.read();
    terminal.input.write("\u001b[A\u001b[A\r");
    expect(await first).toMatchObject({ text: "older" });
    const second = reader.read();
    terminal.input.write(`${PASTE_START}x\ry${PASTE_END}\r`);
    expect(await second).toMatchObject({ text: "x\ny" });
    // In this session the paste is recalled whole.
    const third = reader.read();
    terminal.input.write("\u001b[A\r");
    expect(await third).toMatchObject({ text: "x\ny", typed: "[pasted 2 lines]" });
    expect(store.added).toEqual(["older"]);
  });

  it("lines that arrive in one read are each a message, in order; a line not yet ended waits", async () => {
    const terminal = fakeTerminal();
    const reader = new MessageReader(terminal);
    const first = reader.read();
    terminal.input.write("alpha\rbeta\r\ngamma\rdel");
    expect(await first).toEqual({ text: "alpha", typed: "alpha", pasted: false });
    // Between messages nothing reads the terminal: the rest was kept, not lost with the prompt.
    expect(terminal.input.isPaused()).toBe(true);
    expect(await reader.read()).toMatchObject({ text: "beta" });
    expect(await reader.read()).toMatchObject({ text: "gamma" });
    const fourth = reader.read();
    terminal.input.write("ta\r");
    expect(await fourth).toMatchObject({ text: "delta" });
    // Each kept line is shown at its own prompt when its turn comes.
    expect(terminalScreenLines(terminal.shown())).toEqual(
      expect.arrayContaining(["> alpha", "> beta", "> gamma", "> delta"]),
    );
  });

  it("a continued line and a paste in the same read as the next message stay apart", async () => {
    const terminal = fakeTerminal();
    const reader = new MessageReader(terminal);
    const first = reader.read();
    terminal.input.write(`one\\\rtwo\r${PASTE_START}p\rq${PASTE_END}\rlast\r`);
    expect(await first).toMatchObject({ text: "one\ntwo", pasted: false });
    expect(await reader.read()).toMatchObject({ text: "p\nq", pasted: true });
    expect(await reader.read()).toMatchObject({ text: "last", pasted: false });
  });

  describe("text in one read, on a terminal that moves its cursor", () => {
    // Under TERM=dumb (an editor's shell, say) Node's readline has no cursor keys at all.
    beforeEach(() => {
      vi.stubEnv("TERM", "xterm-256color");
    });
    afterEach(() => {
      vi.unstubAllEnvs();
    });

    // An input method hands over its text as one read, and so does a paste where the terminal has
    // no bracketed paste: it goes in at the cursor, as the same characters typed one by one would.
    it.each([
      { typed: "fix the bug", move: "\u001b[D", chunk: "ab", text: "fix the buabg" },
      { typed: "abc def", move: "\u001b[H", chunk: "XYZ", text: "XYZabc def" },
      { typed: "修复这个函数", move: "\u001b[H", chunk: "请你", text: "请你修复这个函数" },
    ])(
      "$chunk sent as one read after a cursor move goes in at the cursor: $text",
      async (input) => {
        const terminal = fakeTerminal();
        const read = new MessageReader(terminal).read();
        terminal.input.write(input.typed);
        terminal.input.write(input.move);
        terminal.input.write(input.chunk);
        terminal.input.write("\r");
        expect(await read).toEqual({ text: input.text, typed: input.text, pasted: false });
      },
    );

    it("keys and text in the same read keep their order: a move, text, Backspace, more text", async () => {
      const terminal = fakeTerminal();
      const read = new MessageReader(terminal).read();
      terminal.input.write("world\u001b[Hhelo\u007flo \u001b[1;5C!\r");
      expect(await read).toMatchObject({ text: "hello world!" });
    });

    it("an escape sequence cut in two by the reads still moves the cursor", async () => {
      const terminal = fakeTerminal();
      const read = new MessageReader(terminal).read();
      terminal.input.write("bd");
      terminal.input.write("\u001b[1;");
      terminal.input.write("5Dac\u001b[");
      terminal.input.write("Dx\r");
      // Ctrl-Left goes to the word's start; Left then steps back over the c.
      expect(await read).toMatchObject({ text: "axcbd" });
    });

    it("a bracketed paste goes in at the cursor too, as text or as its placeholder", async () => {
      const terminal = fakeTerminal();
      const reader = new MessageReader(terminal);
      const first = reader.read();
      terminal.input.write(`fix the bug\u001b[D${PASTE_START}ab${PASTE_END}\r`);
      expect(await first).toMatchObject({ text: "fix the buabg", pasted: true });
      const second = reader.read();
      terminal.input.write(`see  here${"\u001b[D".repeat(5)}${PASTE_START}a\rb${PASTE_END}\r`);
      expect(await second).toEqual({
        text: "see a\nb here",
        typed: "see [pasted 2 lines] here",
        pasted: true,
      });
    });

    it("a long line that wraps is redrawn from its first row when Home moves back to it", async () => {
      const terminal = fakeTerminal();
      Object.assign(terminal.output, { columns: 80 });
      const read = new MessageReader(terminal).read();
      const long = "word ".repeat(20);
      terminal.input.write(long);
      await vi.waitFor(() => {
        expect(terminal.shown()).toContain(long);
      });
      const before = terminal.shown().length;
      terminal.input.write("\u001b[H");
      await vi.waitFor(() => {
        expect(terminal.shown().length).toBeGreaterThan(before);
      });
      // Up the row the wrap took, then to the left edge, clear, and the prompt and line again.
      expect(terminal.shown().slice(before)).toBe(
        `\u001b[1A\u001b[1G\u001b[0J> ${long}\u001b[3G\u001b[1A`,
      );
      terminal.input.write("\r");
      expect(await read).toMatchObject({ text: long });
    });
  });
});
