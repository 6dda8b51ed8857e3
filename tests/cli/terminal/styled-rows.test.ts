import { describe, expect, it } from "vitest";
import { layOutStyledLines, plain } from "../../../src/cli/terminal/render/styled-rows.js";

describe("layOutStyledLines", () => {
  it("keeps a line's leading blanks on its first word's row, never alone on a row", () => {
    const runs = [plain(`    ${"y".repeat(50)}`)];
    expect(
      layOutStyledLines([{ first: [], rest: [], runs }], { columns: 30, color: false }).split("\n"),
    ).toEqual([`      ${"y".repeat(23)}`, `  ${"y".repeat(27)}`]);
  });
});
