import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { walkthroughText, withWalkthrough } from "../../src/cli/readme-walkthrough.js";

describe("the walk-through of the three chapter-3 calls in docs/tool-path.md", () => {
  it("is exactly what agent explain prints (npm run readme:explain regenerates it)", async () => {
    const doc = readFileSync(new URL("../../docs/tool-path.md", import.meta.url), "utf8");
    expect(withWalkthrough(doc, await walkthroughText())).toBe(doc);
  });
});
