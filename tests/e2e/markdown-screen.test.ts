/**
 * The final answer's markdown: laid out on a real terminal (tmux), byte for byte what the model
 * wrote when stdout is a pipe.
 */
import { describe, expect, it } from "vitest";
import { chatStreamTextReply } from "../support/chat-completions-server.js";
import { TMUX_REASON, isTmuxAvailable } from "../support/tmux.js";
import { useAgentFixture } from "./agent-fixture.js";

const e2e = useAgentFixture();

const PIECES = [
  "# Setup\n\nRun **both** commands:\n\n",
  "```sh\nnpm install\nnpm test\n```\n\n",
  "- see [the guide](https://example.com/guide)\n",
];

describe.skipIf(!isTmuxAvailable())(`a markdown answer on a real terminal ${TMUX_REASON}`, () => {
  it("shows the heading, code block and link laid out, once", async () => {
    e2e.server.script(chatStreamTextReply(PIECES));
    const shown = await e2e.inTerminal(
      ["--prompt", "How do I set it up?"],
      async (terminal) => {
        await terminal.waitForExit();
        return terminal.history().filter((row) => row !== "" && !row.startsWith("Pane is"));
      },
      // Colour on: the heading's marker gives way to bold.
      { extraEnv: { NO_COLOR: "" } },
    );
    // The answer, then the closing line under it, last.
    const done = shown.findIndex((row) => row.startsWith("done in "));
    expect(done).toBe(shown.length - 1);
    expect(shown.slice(done - 7, done)).toEqual([
      "  Setup",
      "  Run both commands:",
      "  ```sh",
      "    npm install",
      "    npm test",
      "  ```",
      "  • see the guide (https://example.com/guide)",
    ]);
    // The raw draft streamed on stderr was erased for it.
    expect(shown.filter((row) => row.includes("# Setup"))).toEqual([]);
  });
});

describe("piped, a markdown answer", () => {
  it("is the raw markdown, byte for byte", async () => {
    e2e.server.script(chatStreamTextReply(PIECES));
    const run = await e2e.agent(["--prompt", "How do I set it up?"]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe(`${PIECES.join("")}\n`);
  });
});

describe.skipIf(!isTmuxAvailable())(
  `an answer the markdown lexer chokes on, on a real terminal ${TMUX_REASON}`,
  () => {
    /** The screen once the answer's last row has been drawn (the wait gives up at 20 s). */
    function screenShowing(answer: string, last: (row: string) => boolean): Promise<string[]> {
      e2e.server.script(chatStreamTextReply([answer]));
      return e2e.inTerminal(["--prompt", "Answer"], async (terminal) => {
        await terminal.waitForExit();
        const rows = await terminal.waitForScreen((shown) => shown.some(last));
        return rows.filter((row) => row !== "" && !row.startsWith("Pane is"));
      });
    }

    it("120 KB that is quadratic to lex: shown as written, at once, indented", async () => {
      // Before the bound this took over a minute to lay out.
      const shown = await screenShowing(
        `${"__a".repeat(40_000)}\n\nTHE END`,
        (row) => row === "  THE END",
      );
      expect(shown.at(-1)).toMatch(/^done in /u);
      expect(shown.at(-2)).toBe("  THE END");
      expect(shown.at(-3)).toMatch(/^ {2}[_a]+$/u);
    }, 60_000);

    it("nesting that overflows the lexer's stack: the answer is still shown, not lost", async () => {
      // Before, the renderer threw and the answer was never printed.
      const shown = await screenShowing(`${"> ".repeat(5_000)}payload`, (row) =>
        row.endsWith("payload"),
      );
      expect(shown.at(-1)).toMatch(/^done in /u);
      expect(shown.at(-2)).toMatch(/^ {2}[> ]*payload$/u);
    }, 60_000);
  },
);
