/**
 * A long command on a real terminal (tmux): its elapsed time and last line of output show at once
 * and are redrawn in place; piped, plain lines.
 */
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { TMUX_REASON, isTmuxAvailable } from "../support/tmux.js";
import { useAgentFixture } from "./agent-fixture.js";

const e2e = useAgentFixture();
const COMMAND = "echo step-one; sleep 5; echo finished";

describe.skipIf(!isTmuxAvailable())(`a running command ${TMUX_REASON}`, () => {
  it("shows progress within a second, and leaves only the result line when it ends", async () => {
    e2e.server.script(
      chatToolCallsReply([{ id: "c1", name: "shell", arguments: { command: COMMAND } }]),
      chatTextReply("Ran it."),
    );
    await e2e.inTerminal(
      ["--sandbox", "off", "--prompt", "Run the slow thing"],
      async (terminal) => {
        await terminal.waitForScreen((rows) =>
          rows.some((row) => row.startsWith("Allow this call?")),
        );
        terminal.type("y", "Enter");
        const answered = Date.now();
        const screen = await terminal.waitForScreen((rows) =>
          rows.some((row) => /^ {2}… running \d+\.\ds · step-one$/u.test(row)),
        );
        expect(Date.now() - answered).toBeLessThan(1_000);
        // Still running: no result line yet.
        expect(screen.filter((row) => row.startsWith("✓"))).toEqual([]);
        // Redrawn in place: the seconds go up on the same row.
        await terminal.waitForScreen((rows) =>
          rows.some((row) => row.startsWith("  … running 1.")),
        );
        // The run goes on for a few more seconds; the screen is checked once it ends.
        const deadline = Date.now() + 15_000;
        let rows = terminal.rows();
        while (!rows.includes("  Ran it.") && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 200));
          rows = terminal.rows();
        }
        expect(rows).toContain("  Ran it.");
        expect(rows.filter((row) => row.includes("… running"))).toEqual([]);
        expect(rows.some((row) => row.startsWith("✓ step-one (+1 line)"))).toBe(true);
      },
    );
  });
});
