import { describe, expect, it } from "vitest";
import { applyEdit } from "../../../src/adapters/filesystem/text-edit.js";

describe("applyEdit", () => {
  it.each([
    [
      "LF file, LF text",
      "a\nb\n",
      "a\nb",
      "x\ny",
      false,
      { kind: "edited", text: "x\ny\n", replaced: 1 },
    ],
    [
      "CRLF file, LF text",
      "a\r\nb\r\n",
      "a\nb",
      "x\ny",
      false,
      { kind: "edited", text: "x\r\ny\r\n", replaced: 1 },
    ],
    [
      "CRLF file, CRLF text",
      "a\r\nb\r\n",
      "a\r\nb",
      "x\r\ny",
      false,
      { kind: "edited", text: "x\r\ny\r\n", replaced: 1 },
    ],
    [
      "LF file, CRLF text",
      "a\nb\n",
      "a\r\nb",
      "x\r\ny",
      false,
      { kind: "edited", text: "x\ny\n", replaced: 1 },
    ],
    [
      "mixed file, LF region",
      "a\r\nb\nc\n",
      "b\nc",
      "d\ne",
      false,
      { kind: "edited", text: "a\r\nd\ne\n", replaced: 1 },
    ],
    ["BOM kept", "\uFEFFa b", "a", "c", false, { kind: "edited", text: "\uFEFFc b", replaced: 1 }],
    ["BOM not matchable", "\uFEFFa", "\uFEFFa", "b", false, { kind: "no_match" }],
    ["no match", "abc", "x", "y", false, { kind: "no_match" }],
    ["empty old text matches nothing", "abc", "", "y", false, { kind: "no_match" }],
    ["empty old text, replace all", "abc", "", "y", true, { kind: "no_match" }],
    ["ambiguous", "a a a", "a", "b", false, { kind: "ambiguous", occurrences: 3 }],
    ["non-overlapping count", "aaaa", "aa", "b", false, { kind: "ambiguous", occurrences: 2 }],
    ["replace all", "a a a", "a", "b", true, { kind: "edited", text: "b b b", replaced: 3 }],
    ["replace all, one match", "a b", "a", "c", true, { kind: "edited", text: "c b", replaced: 1 }],
    [
      "dollar patterns literal",
      "x",
      "x",
      "$& $' $`",
      false,
      { kind: "edited", text: "$& $' $`", replaced: 1 },
    ],
    [
      "dollar patterns literal, all",
      "x x",
      "x",
      "$&",
      true,
      { kind: "edited", text: "$& $&", replaced: 2 },
    ],
  ] as const)("%s", (_name, original, oldString, newString, replaceAll, expected) => {
    expect(applyEdit(original, { oldString, newString, replaceAll })).toEqual(expected);
  });
});
