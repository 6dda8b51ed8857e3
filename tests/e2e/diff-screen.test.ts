/**
 * The approval prompt of a write or an edit on a real terminal (tmux): a diff against the file as
 * it is, and the tool, the path and the question on the screen together, however long the change.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatTextReply, chatToolCallsReply } from "../support/chat-completions-server.js";
import { TMUX_REASON, isTmuxAvailable } from "../support/tmux.js";
import { useAgentFixture } from "./agent-fixture.js";

const e2e = useAgentFixture();
/** `[y/N/v]` where the diff on screen leaves part of the change out (`v` shows it whole). */
const QUESTION = /^Allow this call\? \[y\/N(?:\/v)?\]/u;
const showsQuestion = (rows: readonly string[]): boolean => rows.some((row) => QUESTION.test(row));

describe.skipIf(!isTmuxAvailable())(`diffs in the approval prompt ${TMUX_REASON}`, () => {
  it("an edit shows -old and +new lines and the path", async () => {
    await writeFile(join(e2e.dir.workspace, "app.txt"), "alpha\nbeta = 1\ngamma\n");
    e2e.server.script(
      chatToolCallsReply([
        {
          id: "c1",
          name: "edit_file",
          arguments: { path: "app.txt", old_string: "beta = 1", new_string: "beta = 2" },
        },
      ]),
      chatTextReply("Edited."),
    );
    await e2e.inTerminal(["--prompt", "Bump beta"], async (terminal) => {
      const screen = await terminal.waitForScreen(showsQuestion);
      expect(screen).toContain("Proposed change:");
      expect(screen).toContain("  -beta = 1");
      expect(screen).toContain("  +beta = 2");
      expect(screen).toContain("   alpha");
      expect(screen).toContain("Tool call needs approval: edit_file");
      expect(screen).toContain('Path: "app.txt"');
      terminal.type("y", "Enter");
      await terminal.waitForExit();
    });
    expect(await readFile(join(e2e.dir.workspace, "app.txt"), "utf8")).toBe(
      "alpha\nbeta = 2\ngamma\n",
    );
  });

  it("tab-indented code shows its tabs as indentation, other control characters escaped", async () => {
    await writeFile(
      join(e2e.dir.workspace, "sum.go"),
      "func sum(a, b int) int {\n\tif a > 0 {\n\t\treturn a + b\n\t}\n\treturn b\n}\n",
    );
    e2e.server.script(
      chatToolCallsReply([
        {
          id: "c1",
          name: "edit_file",
          arguments: {
            path: "sum.go",
            old_string: "\t\treturn a + b",
            new_string: "\t\treturn a + b // ok\u0007",
          },
        },
      ]),
      chatTextReply("Edited."),
    );
    await e2e.inTerminal(["--prompt", "Comment it"], async (terminal) => {
      const screen = await terminal.waitForScreen(showsQuestion);
      expect(screen).toContain("       if a > 0 {");
      expect(screen).toContain("  -        return a + b");
      expect(screen).toContain("  +        return a + b // ok\\u{0007}");
      // The diff's rows; the call's JSON arguments, shown apart, keep their own escapes.
      const diffRows = screen.filter((row) => /^ {2}[-+ ]/u.test(row));
      expect(diffRows.filter((row) => row.includes("\\t"))).toEqual([]);
      terminal.type("n", "Enter");
      await terminal.waitForExit();
    });
  });

  it("a 7 KB new file at 80x24 keeps the tool, the path and the question on the screen", async () => {
    const content = Array.from({ length: 200 }, (_, i) => `line ${i + 1} ${"x".repeat(25)}`).join(
      "\n",
    );
    e2e.server.script(
      chatToolCallsReply([
        { id: "c1", name: "write_file", arguments: { path: "docs/big.txt", content } },
      ]),
      chatTextReply("Written."),
    );
    await e2e.inTerminal(["--prompt", "Write it"], async (terminal) => {
      const screen = await terminal.waitForScreen(showsQuestion);
      expect(screen).toContain("Tool call needs approval: write_file");
      expect(screen).toContain('Path: "docs/big.txt"');
      expect(screen).toContain(`  +line 1 ${"x".repeat(25)}`);
      expect(screen).toContain(`  +line 200 ${"x".repeat(25)}`);
      expect(
        screen.some((row) => /more diff lines not shown \(0 removed, \d+ added\)/u.test(row)),
      ).toBe(true);
      terminal.type("n", "Enter");
      await terminal.waitForExit();
    });
  });

  it("a 2,000,001-byte write states the bytes and lines of the whole write beside the question", async () => {
    const content = `${"y".repeat(2_000_000)}\n`;
    e2e.server.script(
      chatToolCallsReply([
        { id: "c1", name: "write_file", arguments: { path: "huge.txt", content } },
      ]),
      chatTextReply("Not written."),
    );
    await e2e.inTerminal(["--prompt", "Write it"], async (terminal) => {
      const screen = await terminal.waitForScreen(showsQuestion);
      expect(screen).toContain("Writes: 2,000,001 bytes in 1 line (the whole content)");
      expect(screen).toContain('Path: "huge.txt"');
      terminal.type("n", "Enter");
      await terminal.waitForExit();
    });
  });
});
