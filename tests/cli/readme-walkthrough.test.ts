import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { walkthroughText, withWalkthrough } from "../../src/cli/readme-walkthrough.js";

describe("the README's walk-through of the three chapter-3 calls", () => {
  it("is exactly what agent explain prints (npm run readme:explain regenerates it)", async () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    expect(withWalkthrough(readme, await walkthroughText())).toBe(readme);
  });
});
