/**
 * The model's text on a real terminal (tmux) as the provider streams it: it shows while the reply
 * is still coming, text beside a tool call stays, and the final answer appears once.
 */
import { describe, expect, it } from "vitest";
import {
  chatStreamTextReply,
  chatStreamToolCallsReply,
} from "../support/chat-completions-server.js";
import { TMUX_REASON, isTmuxAvailable } from "../support/tmux.js";
import { useAgentFixture } from "./agent-fixture.js";

const e2e = useAgentFixture();

describe.skipIf(!isTmuxAvailable())(`streamed text on a real terminal ${TMUX_REASON}`, () => {
  it("appears before the reply is complete, and the answer is shown once at the end", async () => {
    e2e.server.script(
      chatStreamToolCallsReply([{ id: "c1", name: "glob", arguments: { pattern: "*.md" } }], {
        content: ["Looking for ", "notes first."],
      }),
      chatStreamTextReply(["First half,", " then", " the rest."], { delayMs: 1_500 }),
    );
    await e2e.inTerminal(["--prompt", "Find the notes"], async (terminal) => {
      const early = await terminal.waitForScreen((rows) =>
        rows.some((row) => row.includes("First half,")),
      );
      // The last piece is still three seconds away.
      expect(early.join("\n")).not.toContain("the rest.");
      await terminal.waitForExit();
      const shown = terminal.history().filter((row) => row !== "" && !row.startsWith("Pane is"));
      expect(shown).toContain("  Looking for notes first.");
      expect(shown.filter((row) => row.includes("First half, then the rest."))).toEqual([
        "  First half, then the rest.",
      ]);
      // The answer, then the closing line under it.
      expect(shown.at(-2)).toBe("  First half, then the rest.");
      expect(shown.at(-1)).toMatch(/^done in /u);
    });
  });
});

describe.skipIf(!isTmuxAvailable())(`a draft taller than the terminal ${TMUX_REASON}`, () => {
  // Issue 41: the draft scrolled past the top could not be erased, and the answer printed again.
  const paragraphs = Array.from(
    { length: 40 },
    (_, index) => `Paragraph ${String(index + 1).padStart(2, "0")} of the long answer.`,
  );
  const pieces = paragraphs.map((paragraph) => `${paragraph}\n\n`);

  it("the final answer is on the screen exactly once", async () => {
    e2e.server.script(chatStreamTextReply(pieces));
    await e2e.inTerminal(["--prompt", "Write a long answer"], async (terminal) => {
      await terminal.waitForExit();
      const shown = terminal.history();
      for (const paragraph of paragraphs) {
        expect(
          shown.filter((row) => row.includes(paragraph)),
          shown.join("\n"),
        ).toEqual([`  ${paragraph}`]);
      }
      const last = shown.filter((row) => row !== "" && !row.startsWith("Pane is"));
      expect(last.at(-2)).toBe("  Paragraph 40 of the long answer.");
      expect(last.at(-1)).toMatch(/^done in /u);
    });
  });

  it("text beside a tool call stays, whole and once", async () => {
    e2e.server.script(
      chatStreamToolCallsReply([{ id: "c1", name: "glob", arguments: { pattern: "*.md" } }], {
        content: pieces,
      }),
      chatStreamTextReply(["Done."]),
    );
    await e2e.inTerminal(["--prompt", "Look around"], async (terminal) => {
      await terminal.waitForExit();
      const shown = terminal.history();
      for (const paragraph of paragraphs) {
        expect(
          shown.filter((row) => row.includes(paragraph)),
          shown.join("\n"),
        ).toEqual([`  ${paragraph}`]);
      }
    });
  });
});

describe("piped, a streamed answer", () => {
  it("is what the model wrote on stdout, with nothing streamed onto stderr", async () => {
    e2e.server.script(
      chatStreamToolCallsReply([{ id: "c1", name: "glob", arguments: { pattern: "*.md" } }], {
        content: ["Looking."],
      }),
      chatStreamTextReply(["Line one\n", "line two"]),
    );
    const run = await e2e.agent(["--prompt", "Find the notes"]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe("Line one\nline two\n");
    expect(run.stderr).toContain("  Looking.\n");
    expect(run.stderr).not.toContain("line two");
  });
});
