import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../../src/cli/terminal/render/markdown-view.js";

/** A clock that stands still: a loaded machine never spends the layout budget (markdown-budget tests do). */
const STILL = (): number => 0;

const plainView = (markdown: string, columns?: number): string =>
  renderMarkdown(markdown, { color: false, columns, now: STILL });
const colorView = (markdown: string, columns?: number): string =>
  renderMarkdown(markdown, { color: true, columns, now: STILL });

const OWN_STYLE = new RegExp(`${String.fromCharCode(0x1b)}\\[[0-9;]*m`, "gu");

const ANSWER = [
  "# Plan",
  "Use *care* and **force**, run `npm test`, see [the docs](https://example.com/docs) or <https://x.dev>.",
  "",
  "## Steps",
  "1. first",
  "2. second",
  "   - nested",
  "- [x] done",
  "- [ ] open",
  "",
  "> quoted",
  "> twice",
  "",
  "```ts",
  "const x = 1;",
  "\treturn x;",
  "```",
  "",
  "| Name | Size |",
  "|:-----|-----:|",
  "| a | 1 |",
  "| longer | 22 |",
  "",
  "---",
].join("\n");

describe("renderMarkdown", () => {
  it("without colour keeps the markers that carry the meaning, laid out and indented", () => {
    expect(plainView(ANSWER, 80).split("\n")).toEqual([
      "  # Plan",
      "  ",
      "  Use *care* and **force**, run `npm test`, see the docs",
      "  (https://example.com/docs) or https://x.dev.",
      "  ",
      "  ## Steps",
      "  ",
      "  1. first",
      "  2. second",
      "     • nested",
      "  ",
      "  • [x] done",
      "  • [ ] open",
      "  ",
      "  │ quoted",
      "  │ twice",
      "  ",
      "  ```ts",
      "    const x = 1;",
      "    \treturn x;",
      "  ```",
      "  ",
      "  Name   │ Size",
      "  ───────┼─────",
      "  a      │    1",
      "  longer │   22",
      "  ",
      `  ${"─".repeat(38)}`,
    ]);
  });

  it("with colour styles instead, each style closed on its own row", () => {
    expect(colorView("# Plan\n## Steps\nUse *care*, **force**, ~~old~~ and `npm test`.")).toBe(
      [
        "  \u001b[1;4mPlan\u001b[0m",
        "  ",
        "  \u001b[1mSteps\u001b[0m",
        "  ",
        "  Use \u001b[3mcare\u001b[0m, \u001b[1mforce\u001b[0m, \u001b[9mold\u001b[0m and \u001b[36mnpm test\u001b[0m.",
      ].join("\n"),
    );
    expect(colorView("a **bold text that wraps** b", 20).split("\n")).toEqual([
      "  a \u001b[1mbold text that\u001b[0m",
      "  \u001b[1mwraps\u001b[0m b",
    ]);
  });

  it("shows every link's address, unless the text is the address", () => {
    expect(plainView("[https://good.example](https://evil.example/x)")).toBe(
      "  https://good.example (https://evil.example/x)",
    );
    expect(plainView("<https://x.dev> and [https://y.dev](https://y.dev)")).toBe(
      "  https://x.dev and https://y.dev",
    );
    expect(plainView("![diagram](https://x.dev/a.png)")).toBe(
      "  [image: diagram] (https://x.dev/a.png)",
    );
  });

  it("breaks long lines between words, list text kept under the bullet", () => {
    expect(plainView(`- ${"word ".repeat(10).trim()}`, 30).split("\n")).toEqual([
      "  • word word word word word",
      "    word word word word word",
    ]);
    expect(plainView("x".repeat(45), 30).split("\n")).toEqual([
      `  ${"x".repeat(27)}`,
      `  ${"x".repeat(18)}`,
    ]);
  });
});

describe("renderMarkdown with hostile text", () => {
  it("shows escape sequences, OSC 8 links and bells in a code block as escapes", () => {
    const markdown = "```sh\necho \u001b[2J\u001b]8;;https://evil\u0007click\u001b]8;;\u0007\n```";
    expect(plainView(markdown)).toBe(
      [
        "  ```sh",
        "    echo \\u{001b}[2J\\u{001b}]8;;https://evil\\u{0007}click\\u{001b}]8;;\\u{0007}",
        "  ```",
      ].join("\n"),
    );
  });

  it("escapes controls that only the lexer's character references produce", () => {
    expect(plainView("Entity &#27;[31mred &#x9b;2J end")).toBe(
      "  Entity \\u{001b}[31mred \\u{009b}2J end",
    );
    expect(plainView("[a&#27;(2J&#7;](https://x.dev/&#27;)")).toBe(
      "  a\\u{001b}(2J\\u{0007} (https://x.dev/&#27;)",
    );
  });

  it("never lets a carriage return move the cursor back over a line", () => {
    expect(plainView("safe text\rforged")).toBe("  safe text\\rforged");
    expect(plainView("```\nok\rrm -rf ~\n```")).toBe("  ```\n    ok\\rrm -rf ~\n  ```");
    expect(plainView("a\r\nb")).toBe("  a\n  b");
  });

  it("shows bidi overrides and zero-width characters in code and addresses, and counts runs", () => {
    expect(plainView("`rm\u200b -rf \u202e/`")).toBe("  `rm\\u{200b} -rf \\u{202e}/`");
    expect(plainView("```\na\u200bb\n\u2066x\u2069\n```")).toBe(
      "  ```\n    a\\u{200b}b\n    \\u{2066}x\\u{2069}\n  ```",
    );
    expect(plainView(`\`\`\`\n${"\u200b".repeat(4000)}rm -rf ~\n\`\`\``)).toBe(
      "  ```\n    ⟨4000 × U+200B⟩rm -rf ~\n  ```",
    );
    expect(plainView("[docs](https://x.dev/\u200bpath\u2067)")).toBe(
      "  docs (https://x.dev/\\u{200b}path\\u{2067})",
    );
    expect(plainView(`[docs${"\u3164".repeat(50)}](https://x.dev)`)).toBe(
      "  docs⟨50 × U+3164⟩ (https://x.dev)",
    );
    // In prose, a direction override is escaped; a lone zero-width joiner (emoji) stays.
    expect(plainView("a\u202eb 👩\u200d💻")).toBe("  a\\u{202e}b 👩\u200d💻");
  });

  it("writes no escape sequence but its own SGR styles, whatever the model sends", () => {
    const hostile = [
      "# \u001b]8;;https://evil\u001b\\Title\u001b]8;;\u001b\\",
      "*\u001b[2J* **&#x1b;[H** `\u009b2J` [\u001b]0;x\u0007](https://e/\u001b[1A)",
      "> \u202eevil\r\n- \u001bP payload \u001b\\",
      "| \u001b[31m | b |\n|---|---|\n| &#27;[0m | \u0007 |",
      "```\u001b[31m\n\u001b[2J\r\n```",
      "<b onclick=\u001b[5m>html</b>",
    ].join("\n\n");
    for (const color of [true, false]) {
      const shown = renderMarkdown(hostile, { color, columns: 60, now: STILL });
      const withoutOwnStyles = shown.replace(OWN_STYLE, "");
      // Line breaks are the layout's; no other control character, C0 or C1, is left.
      expect(withoutOwnStyles).not.toMatch(/[^\P{Cc}\n]/u);
      expect(withoutOwnStyles).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/u);
      if (!color) expect(shown).toBe(withoutOwnStyles);
      for (const row of shown.split("\n")) expect(row.startsWith("  ")).toBe(true);
    }
  });
});
