import { describe, expect, it } from "vitest";
import { utf8Bytes } from "../../../src/core/tools/argument-limits.js";
import { jsonBytes } from "../../../src/core/runner/journal-text.js";

describe("bytes a model's text takes in the journal", () => {
  it.each([
    ["a", 1, 1],
    ["é", 2, 2],
    ["€", 3, 3],
    ["😀", 4, 4],
    // A lone surrogate: `\udXXX` in a journal line, `\\udXXX` in call_prepared's canonical text.
    ["\ud800", 7, 7],
    ["\udfff", 7, 7],
    ["\ude00\ud83d", 14, 14],
    ["a\ud800b", 9, 9],
    ['"', 1, 2],
    // Every control character as the longest escape, `\u00XX`.
    ["\n", 1, 6],
    ["\u0001", 1, 6],
  ])("%j: %i counted, %i as a JSON string", (text, bytes, json) => {
    expect(utf8Bytes(text)).toBe(bytes);
    expect(jsonBytes(text)).toBe(json);
  });

  it("never counts less than a journal line writes for the text", () => {
    const text = 'x"\\\n\u0001\ud800é😀\udc00';
    expect(jsonBytes(text)).toBeGreaterThanOrEqual(Buffer.byteLength(JSON.stringify(text)) - 2);
  });
});
