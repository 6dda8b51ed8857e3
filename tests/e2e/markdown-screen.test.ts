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
    const done = shown.findIndex((row) => row.startsWith("done in "));
    expect(shown.slice(done + 1)).toEqual([
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
