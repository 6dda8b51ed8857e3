import { describe, expect, it } from "vitest";
import {
  cellsOf,
  cellsOfText,
  usableCells,
} from "../../../src/cli/terminal/render/terminal-cells.js";

describe("the one cell-width rule", () => {
  it("counts printable ASCII as one cell, a tab as eight, anything else as two", () => {
    expect(["a", " ", "~", "\t", "é", "写", "😀", "\u200b", "\u001b"].map(cellsOf)).toEqual([
      1, 1, 1, 8, 2, 2, 2, 2, 2,
    ]);
    expect(cellsOfText("ab\t写")).toBe(12);
  });

  it("leaves one cell spare, never fewer than 20, and no limit when the width is unknown", () => {
    expect([80, 21, 5, 0, undefined].map(usableCells)).toEqual([
      79,
      20,
      20,
      Number.POSITIVE_INFINITY,
      Number.POSITIVE_INFINITY,
    ]);
  });
});
