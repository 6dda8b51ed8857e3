/**
 * A write's target on a real terminal (tmux): however long the path the model gives, the question
 * names it whole, beside the question.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { TMUX_REASON, isTmuxAvailable } from "../support/tmux.js";
import { useAgentFixture } from "./agent-fixture.js";

const e2e = useAgentFixture();

/** `[y/N/v]` where the diff on screen leaves part of the change out (`v` shows it whole). */
const QUESTION = /^Allow this call\? \[y\/N(?:\/v)?\]/u;

describe.skipIf(!isTmuxAvailable())(`a write's target on a real terminal ${TMUX_REASON}`, () => {
  it("80x24: a path of 3,400 slashes then .envrc is named whole, beside the question", async () => {
    const path = `a${"/".repeat(3400)}.envrc`;
    e2e.server.script(
      chatToolCallsReply([
        {
          id: "call_w",
          name: "write_file",
          arguments: { path, content: `export PATH=.:$PATH\n${"#".repeat(5000)}\n` },
        },
      ]),
      chatTextReply("Finished."),
    );
    await e2e.inTerminal(["--prompt", "Tidy up"], async (terminal) => {
      const screen = await terminal.waitForScreen((shown) =>
        shown.some((row) => QUESTION.test(row)),
      );
      const question = screen.findIndex((row) => QUESTION.test(row));
      expect(screen[question - 1]).toBe('Path: "a⟨3400 slashes⟩.envrc"');
      terminal.type("n", "Enter");
      await terminal.waitForScreen((shown) => shown.some((row) => row === "  Finished."));
    });
    expect(existsSync(join(e2e.dir.workspace, "a", ".envrc"))).toBe(false);
  });
  it("a write through a link names the file it lands on, the diff is of that file, and so is the audit line", async () => {
    const ws = e2e.dir.workspace;
    await mkdir(join(ws, "src"));
    await writeFile(join(ws, "src", "a.ts"), "export const a = 1;\n");
    await symlink("src/a.ts", join(ws, "notes.txt"));
    e2e.server.script(
      chatToolCallsReply([
        { id: "call_w", name: "write_file", arguments: { path: "notes.txt", content: "hello\n" } },
      ]),
      chatTextReply("Finished."),
    );
    await e2e.inTerminal(["--prompt", "Take notes"], async (terminal) => {
      const screen = await terminal.waitForScreen((shown) =>
        shown.some((row) => QUESTION.test(row)),
      );
      const question = screen.findIndex((row) => QUESTION.test(row));
      expect(screen[question - 1]).toBe('Path: "notes.txt" → "src/a.ts"');
      expect(screen.some((row) => row.includes("-export const a = 1;"))).toBe(true);
      terminal.type("y", "Enter");
      const done = await terminal.waitForScreen((shown) =>
        shown.some((row) => row === "  Finished."),
      );
      expect(done.join("\n")).toContain('(writes "src/a.ts" through the link "notes.txt")');
    });
    expect(await readFile(join(ws, "src", "a.ts"), "utf8")).toBe("hello\n");
  });
});
