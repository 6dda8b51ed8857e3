/**
 * Keys typed while the model's answer streams in, on a real terminal (tmux): they never land in
 * the streamed text, the answer is shown once with no broken draft left above it, and the typed
 * line is the next message, shown at its own prompt.
 */
import { describe, expect, it } from "vitest";
import {
  chatGatedStreamReply,
  chatTextReply,
  streamGate,
} from "../support/chat-completions-server.js";
import { TMUX_REASON, isTmuxAvailable } from "../support/tmux.js";
import { useAgentFixture } from "./agent-fixture.js";

const e2e = useAgentFixture();

const lastRowIsPrompt = (rows: readonly string[]): boolean =>
  rows.filter((row) => row !== "").at(-1) === ">";

describe.skipIf(!isTmuxAvailable())(`typing ahead during a stream ${TMUX_REASON}`, () => {
  it("the answer appears once, without the typed keys, and the typed line is the next turn", async () => {
    const typed = streamGate();
    e2e.server.script(
      chatGatedStreamReply([
        { text: "Streaming slowly" },
        // The rest comes once the keys are typed: they land mid-line, where the cursor is.
        { text: " so you can see it", until: typed.opened },
        { text: " arrive." },
      ]),
      chatTextReply("Second."),
    );
    const rows = await e2e.inTerminal([], async (terminal) => {
      await terminal.waitForScreen(lastRowIsPrompt);
      terminal.type("first", "Enter");
      await terminal.waitForScreen((shown) => shown.some((row) => row.includes("Streaming")));
      terminal.type("typed ahead", "Enter");
      typed.open();
      const shown = await terminal.waitForScreen(
        (screen) => screen.includes("  Second.") && lastRowIsPrompt(screen),
      );
      terminal.type("/exit", "Enter");
      await terminal.waitForExit();
      return shown;
    });
    // From the first message on: the answer once, whole, and the typed line only at its prompt.
    const conversation = rows.filter((row) => row !== "");
    expect(conversation.slice(conversation.indexOf("> first"))).toEqual([
      "> first",
      "  Streaming slowly so you can see it arrive.",
      "done in 1 turn · context 0% used",
      "> typed ahead",
      "  Second.",
      "done in 1 turn · context 0% used",
      ">",
    ]);
    expect(e2e.server.requests.map((request) => request.messages.at(-1))).toEqual([
      { role: "user", content: "first" },
      { role: "user", content: "typed ahead" },
    ]);
  });
});
