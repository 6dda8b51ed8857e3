/**
 * Issue 28 item 6: the final answer's markdown is laid out in bounded time and never lost. Each
 * input here froze the CLI or threw before: runs of `__a` are quadratic in marked's lexer (120 KB
 * took over a minute), and thousands of nested markers overflow its stack.
 */
import { describe, expect, it } from "vitest";
import { MAX_MARKDOWN_CHARS } from "../../../src/cli/terminal/render/markdown-budget.js";
import { renderMarkdown } from "../../../src/cli/terminal/render/markdown-view.js";

const COLUMNS = 80;

/** The answer as written: every row indented under the harness's margin, none wider than the screen. */
function expectShownAsWritten(shown: string, answer: string): void {
  const rows = shown.split("\n");
  expect(rows.every((row) => row.startsWith("  "))).toBe(true);
  expect(rows.every((row) => row.length <= COLUMNS)).toBe(true);
  // Unwrapped, the rows are the answer itself: nothing lost, nothing reordered.
  expect(rows.map((row) => row.slice(2)).join("")).toBe(answer.replaceAll("\n", ""));
}

describe("the final answer's markdown has a bound", () => {
  it("a 120 KB answer that is quadratic for the lexer is shown at once, as written", () => {
    const answer = "__a".repeat(40_000);
    expect(answer.length).toBeGreaterThan(MAX_MARKDOWN_CHARS);
    expectShownAsWritten(renderMarkdown(answer, { color: false, columns: COLUMNS }), answer);
  }, 5_000);

  it("lexing that runs past its budget stops, and the answer is shown as written", () => {
    const answer = "__b__ c ".repeat(1_000);
    // A clock that jumps a second on every look: the budget is spent at the first check.
    let clock = 0;
    const now = (): number => (clock += 1_000);
    const shown = renderMarkdown(answer, { color: false, columns: COLUMNS, now });
    expectShownAsWritten(shown, answer);
    expect(shown).not.toContain("**b**");
    // With a clock that stands still the same answer is laid out as markdown (emphasis kept).
    const laidOut = renderMarkdown("__a__ b", { color: false, columns: COLUMNS, now: () => 0 });
    expect(laidOut).toBe("  **a** b");
  });

  it.each([
    ["thousands of nested list markers", `${"- ".repeat(5_000)}payload`],
    ["thousands of nested quote markers", `${"> ".repeat(5_000)}payload`],
    ["a mix of both", `${"> - ".repeat(3_000)}payload`],
  ])("%s (a stack overflow in the lexer) leaves the answer shown, not lost", (_, answer) => {
    const shown = renderMarkdown(answer, { color: false, columns: COLUMNS });
    expect(shown).toContain("payload");
    expectShownAsWritten(shown, answer);
  });

  it("nesting deeper than a person reads is shown as written; shallow nesting is laid out", () => {
    const deep = `${"> ".repeat(40)}deep`;
    expectShownAsWritten(renderMarkdown(deep, { color: false, columns: COLUMNS }), deep);
    expect(renderMarkdown("> > quoted", { color: false, columns: COLUMNS })).toBe("  │ │ quoted");
  });

  it("shown as written is still escaped: no control character reaches the terminal", () => {
    const answer = `${"__a".repeat(10_000)}\u001b[2J\u009b31m\u202e`;
    const shown = renderMarkdown(answer, { color: false, columns: COLUMNS });
    for (const control of ["\u001b", "\u009b", "\u202e"]) expect(shown).not.toContain(control);
    expect(shown.replaceAll(/\n {2}/gu, "")).toContain("\\u{001b}[2J\\u{009b}31m\\u{202e}");
  });
});
