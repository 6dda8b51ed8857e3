import { describe, expect, it } from "vitest";
import { fileDiffView, renderFileDiff } from "../../../src/cli/terminal/approval/diff-view.js";

const plain = { color: false, columns: undefined, maxRows: 40 };

describe("renderFileDiff", () => {
  it("shows an edit as a unified diff with context, indented", () => {
    const before = "one\ntwo\nthree\nfour\n";
    const after = "one\n2\nthree\nfour\n";
    expect(renderFileDiff({ path: "n.txt", before, after }, plain)).toEqual([
      "  @@ -1,4 +1,4 @@",
      "   one",
      "  -two",
      "  +2",
      "   three",
      "   four",
    ]);
  });

  it("shows a new file as its content, all added", () => {
    expect(renderFileDiff({ path: "n.txt", before: undefined, after: "a\nb" }, plain)).toEqual([
      "  @@ -0,0 +1,2 @@",
      "  +a",
      "  +b",
    ]);
  });

  it("colours removed and added lines on a terminal", () => {
    const rows = renderFileDiff(
      { path: "n", before: "x\n", after: "y\n" },
      { ...plain, color: true },
    );
    expect(rows).toEqual([
      "\u001b[36m  @@ -1,1 +1,1 @@\u001b[0m",
      "\u001b[31m  -x\u001b[0m",
      "\u001b[32m  +y\u001b[0m",
    ]);
  });

  it("escapes what would drive the terminal and counts hidden runs", () => {
    const after = `a\u001b[2Jb\n${"\u3164".repeat(50)}end\n`;
    expect(renderFileDiff({ path: "n", before: undefined, after }, plain)).toEqual([
      "  @@ -0,0 +1,2 @@",
      "  +a\\u{001b}[2Jb",
      "  +⟨50 × U+3164⟩end",
    ]);
  });

  it("marks the blanks of a line pair that differ only in them: a tab as →, a space as ·", () => {
    const before = "func f() int {\n\treturn x\n}\n";
    const after = "func f() int {\n    return x\n}\n";
    expect(renderFileDiff({ path: "main.go", before, after }, plain)).toEqual([
      "  @@ -1,3 +1,3 @@",
      "   func f() int {",
      "  -→   return·x",
      "  +····return·x",
      "   }",
    ]);
  });

  it("marks trailing blanks on any removed or added line, and a tab's padding to its stop", () => {
    const before = "x = 1\n";
    const after = "x = 2 \t\n";
    expect(renderFileDiff({ path: "n", before, after }, plain)).toEqual([
      "  @@ -1,1 +1,1 @@",
      "  -x = 1",
      "  +x = 2·→ ",
    ]);
  });

  it("leaves a tab-indented file's changes drawn as the editor shows them", () => {
    const before = "\tfoo\n\tbar\n\tbaz\n";
    const after = "\tfoo\n\tbar()\n\tbaz\n";
    expect(renderFileDiff({ path: "n", before, after }, plain)).toEqual([
      "  @@ -1,3 +1,3 @@",
      "       foo",
      "  -    bar",
      "  +    bar()",
      "       baz",
    ]);
  });

  it("shows a long diff's head and tail with counts", () => {
    const after = Array.from({ length: 100 }, (_, index) => `line ${index + 1}`).join("\n");
    const rows = renderFileDiff({ path: "n", before: undefined, after }, { ...plain, maxRows: 11 });
    expect(rows).toEqual([
      "  @@ -0,0 +1,100 @@",
      "  +line 1",
      "  +line 2",
      "  +line 3",
      "  +line 4",
      "  +line 5",
      "   … 91 more diff lines not shown (0 removed, 91 added) …",
      "  +line 97",
      "  +line 98",
      "  +line 99",
      "  +line 100",
    ]);
  });

  it("shows a diff whole when leaving lines out would hide no more than it costs", () => {
    const numbered = (changed: readonly number[]) =>
      Array.from({ length: 40 }, (_, index) =>
        changed.includes(index + 1) ? `new ${index + 1}` : `line ${index + 1}`,
      ).join("\n");
    const change = { path: "n", before: numbered([]), after: numbered([5, 35]) };
    // 18 lines: 17 rows would leave 2 out, and the note of that plus the `v` note cost 2 rows.
    const whole = fileDiffView(change, { ...plain, maxRows: 17 });
    expect(whole?.cut).toBe(false);
    expect(whole?.rows).toEqual([
      "  @@ -2,7 +2,7 @@",
      "   line 2",
      "   line 3",
      "   line 4",
      "  -line 5",
      "  +new 5",
      "   line 6",
      "   line 7",
      "   line 8",
      "  @@ -32,7 +32,7 @@",
      "   line 32",
      "   line 33",
      "   line 34",
      "  -line 35",
      "  +new 35",
      "   line 36",
      "   line 37",
      "   line 38",
    ]);
    const shortened = fileDiffView(change, { ...plain, maxRows: 16 });
    expect(shortened?.rows[9]).toBe("   … 3 more diff lines not shown (0 removed, 0 added) …");
  });

  it("cuts a line to the terminal's width, so one line is one row, keeping its end", () => {
    const rows = renderFileDiff(
      { path: "n", before: undefined, after: "x".repeat(100) },
      { ...plain, columns: 30 },
    );
    expect(rows[1]).toBe(`  +${"x".repeat(17)}…${"x".repeat(8)}`);
  });

  it("keeps the end of a line padded with sparse visible characters in view", () => {
    // No run of hidden characters to count: only the cut decides whether `evil()` is seen.
    const line = `ok();${" .".repeat(250)}evil();`;
    const rows = renderFileDiff(
      { path: "n", before: undefined, after: line },
      {
        ...plain,
        columns: 80,
      },
    );
    expect(rows[1]).toMatch(/^ {2}\+ok\(\); \. \. .*….*evil\(\);$/u);
    expect(Array.from(rows[1] ?? "").length).toBeLessThanOrEqual(79);
  });

  it("cuts by cells: a wide character is never split, and the end stays", () => {
    const rows = renderFileDiff(
      { path: "n", before: undefined, after: `${"界".repeat(40)}tail` },
      { ...plain, columns: 30 },
    );
    expect(rows[1]).toBe(`  +${"界".repeat(8)}…界界tail`);
  });
});

describe("fileDiffView", () => {
  it("says whether the fitted rows leave anything out, and gives every line whole, wrapped", () => {
    const long = `${"a".repeat(100)}END`;
    const view = fileDiffView(
      { path: "n", before: undefined, after: `${long}\nshort\n` },
      { color: false, columns: 40, maxRows: 40 },
    );
    expect(view?.cut).toBe(true);
    expect(view?.rows.some((row) => row.includes("END"))).toBe(true);
    const whole = view?.whole() ?? [];
    expect(whole.join("").replaceAll(/\s/gu, "")).toContain(`+${long}+short`);
    for (const row of whole) expect(row.startsWith("  ")).toBe(true);
    expect(fileDiffView({ path: "n", before: "a\n", after: "b\n" }, plain)?.cut).toBe(false);
  });

  it("marks the same blanks in the whole change shown for `v`", () => {
    const view = fileDiffView(
      { path: "main.go", before: "\treturn x\n", after: "    return x\n" },
      plain,
    );
    expect(view?.whole()).toEqual(["  @@ -1,1 +1,1 @@", "  -→   return·x", "  +····return·x"]);
  });

  it("gives up on a diff too costly to work out, rather than hold the prompt", () => {
    const lines = (prefix: string) =>
      Array.from({ length: 500 }, (_, index) => `${prefix}${String(index)}`).join("\n");
    const change = { path: "n", before: lines("a"), after: lines("b") };
    // A limit already past: given up before the first step (by default 1.5 s, DIFF_TIMEOUT_MS).
    expect(fileDiffView(change, { ...plain, timeoutMs: -1 })).toBeUndefined();
    expect(fileDiffView(change, plain)?.cut).toBe(true);
  });
});
