import { describe, expect, it } from "vitest";
import {
  layOutHarnessLine,
  layOutStyledLines,
  plain,
  type Run,
} from "../../../src/cli/terminal/render/styled-rows.js";

const ESC = String.fromCharCode(0x1b);
const RED = ["31"];
const DIM = ["2"];

describe("layOutHarnessLine", () => {
  const took: Run = { text: "(3.5 s)", style: DIM, whole: true };
  const line: Run[] = [
    { text: "✗", style: RED },
    plain(" failed: one two three four five six "),
    took,
  ];

  it("leaves the line on one row, painted as it was, when the width is unknown", () => {
    for (const columns of [undefined, 0]) {
      expect(layOutHarnessLine(line, { columns, color: true })).toBe(
        `${ESC}[31m✗${ESC}[0m failed: one two three four five six ${ESC}[2m(3.5 s)${ESC}[0m`,
      );
      expect(layOutHarnessLine(line, { columns, color: false })).toBe(
        "✗ failed: one two three four five six (3.5 s)",
      );
    }
  });

  it("breaks between words first and paints each row after, later rows indented", () => {
    expect(layOutHarnessLine(line, { columns: 30, color: true }).split("\n")).toEqual([
      `${ESC}[31m✗${ESC}[0m failed: one two three four`,
      `  five six ${ESC}[2m(3.5 s)${ESC}[0m`,
    ]);
  });

  it("moves a run kept whole to the next row rather than breaking at its blank", () => {
    // `(3.5` would fit on the first row; ` s)` would not.
    const rows = layOutHarnessLine([plain(`${"x".repeat(22)} `), { ...took, style: [] }], {
      columns: 28,
      color: false,
    });
    expect(rows.split("\n")).toEqual(["x".repeat(22), "  (3.5 s)"]);
  });

  it("breaks inside a word only when it is longer than a row, and closes its colour on each row", () => {
    const rows = layOutHarnessLine(
      [{ text: "!", style: RED }, plain(" see "), { text: "p".repeat(45), style: DIM }],
      { columns: 21, color: true },
    );
    expect(rows.split("\n")).toEqual([
      `${ESC}[31m!${ESC}[0m see`,
      `  ${ESC}[2m${"p".repeat(18)}${ESC}[0m`,
      `  ${ESC}[2m${"p".repeat(18)}${ESC}[0m`,
      `  ${ESC}[2m${"p".repeat(9)}${ESC}[0m`,
    ]);
  });

  it("keeps a dimmed detail row's indent with its first word, and dims each row on its own", () => {
    const detail: Run = { text: `  ${"x".repeat(40)} end`, style: DIM };
    expect(layOutHarnessLine([detail], { columns: 30, color: true }).split("\n")).toEqual([
      `${ESC}[2m  ${"x".repeat(27)}${ESC}[0m`,
      `  ${ESC}[2m${"x".repeat(13)} end${ESC}[0m`,
    ]);
  });
});

describe("layOutStyledLines", () => {
  it("keeps a line's leading blanks on its first word's row, never alone on a row", () => {
    const runs = [plain(`    ${"y".repeat(50)}`)];
    expect(
      layOutStyledLines([{ first: [], rest: [], runs }], { columns: 30, color: false }).split("\n"),
    ).toEqual([`      ${"y".repeat(23)}`, `  ${"y".repeat(27)}`]);
  });

  it("still indents every row of model text, and keeps a whole run on one row", () => {
    // `four` would fit on the first row, ` five` would not.
    const runs: Run[] = [plain("one two three "), { text: "four five", style: DIM, whole: true }];
    expect(
      layOutStyledLines([{ first: [], rest: [], runs }], { columns: 21, color: false }).split("\n"),
    ).toEqual(["  one two three", "  four five"]);
  });
});
