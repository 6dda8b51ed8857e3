import { describe, expect, it } from "vitest";
import { withNoteLines, withoutNoteLines } from "../../../src/core/tools/command-notes.js";

describe("the sandbox's notes as lines of text", () => {
  it.each([
    ["after output that ends its line", "out\n", ["a"], "out\n[sandbox] a"],
    ["on a line of their own", "out", ["a", "b"], "out\n[sandbox] a\n[sandbox] b"],
    ["alone", "", ["a"], "[sandbox] a"],
    ["none: the text as it is", "out", [], "out"],
    ["whole, a newline in a path included", "", ["a\nb"], "[sandbox] a\nb"],
  ])("are added %s", (_name, text, notes, expected) => {
    expect(withNoteLines(text, notes)).toBe(expected);
  });

  it.each([
    ["the lines added", "out\n[sandbox] a\nb", ["a\nb"], "out\n"],
    [
      "only the lines added, not the same words printed before them",
      "[sandbox] a\n[sandbox] a",
      ["a"],
      "[sandbox] a\n",
    ],
    [
      "nothing from a text that no longer ends with them",
      "out\n[sandbox] a\n[cut]",
      ["a"],
      "out\n[sandbox] a\n[cut]",
    ],
    ["nothing when there are no notes", "out\n[sandbox] a", [], "out\n[sandbox] a"],
  ])("are taken off: %s", (_name, text, notes, expected) => {
    expect(withoutNoteLines(text, notes)).toBe(expected);
  });
});
