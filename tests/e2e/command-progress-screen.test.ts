/**
 * A long command on a real terminal (tmux): its elapsed time and last line of output show at once
 * and are redrawn in place; piped, plain lines.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { TMUX_REASON, isTmuxAvailable } from "../support/tmux.js";
import { useAgentFixture } from "./agent-fixture.js";

const e2e = useAgentFixture();
// The command runs until the test has seen what it wants on the screen (a file says so; at most
// 30 s), so what is checked "while it runs" is checked while it runs, however loaded the machine.
const COMMAND =
  "echo step-one; for i in $(seq 300); do [ -e proceed ] && break; sleep 0.1; done; echo finished";

describe.skipIf(!isTmuxAvailable())(`a running command ${TMUX_REASON}`, () => {
  it("shows progress while it runs, and leaves only the result line, its last line of output, when it ends", async () => {
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
        const screen = await terminal.waitForScreen((rows) =>
          rows.some((row) => /^ {2}… running \d+\.\ds of 120 s · step-one$/u.test(row)),
        );
        // Still running: no result line yet.
        expect(screen.filter((row) => row.startsWith("✓"))).toEqual([]);
        // Redrawn in place: the seconds go up on the same row.
        await terminal.waitForScreen((rows) =>
          rows.some((row) => row.startsWith("  … running 1.")),
        );
        // Now the command may end; the screen is checked once the model's answer is shown.
        writeFileSync(join(e2e.dir.workspace, "proceed"), "");
        const rows = await terminal.waitForScreen((shown) => shown.includes("  Ran it."));
        expect(rows.filter((row) => row.includes("… running"))).toEqual([]);
        expect(rows.some((row) => row.startsWith("✓ finished (+1 line)"))).toBe(true);
      },
    );
  });
});
