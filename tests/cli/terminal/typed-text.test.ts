import { describe, expect, it } from "vitest";
import { TypedText } from "../../../src/cli/terminal/input/typed-text.js";

function cut(...reads: string[]) {
  const typed = new TypedText();
  return reads.flatMap((text) => typed.split([{ kind: "keys", text }]));
}

describe("TypedText", () => {
  it("cuts typed keys into plain text and the keys readline acts on, in order", () => {
    expect(cut("ab\u001b[Dcd\u007fe\r")).toEqual([
      { kind: "text", text: "ab" },
      { kind: "keys", text: "\u001b[D" },
      { kind: "text", text: "cd" },
      { kind: "keys", text: "\u007f" },
      { kind: "text", text: "e" },
      { kind: "keys", text: "\r" },
    ]);
  });

  it("ends each escape sequence where readline ends it", () => {
    for (const key of [
      "\u001b[1;5D",
      "\u001b[3~",
      "\u001b[24;5~",
      "\u001bOH",
      "\u001bO5P",
      "\u001b[[A",
      "\u001b\u001b[D",
      "\u001bb",
      "\u001b\u001bb",
      "\u0001",
    ]) {
      expect(cut(`${key}xy`)).toEqual([
        { kind: "keys", text: key },
        { kind: "text", text: "xy" },
      ]);
    }
  });

  it("a sequence cut in two by the reads is still all keys; the text after it is text", () => {
    const whole = "a\u001b[1;5Dbc";
    for (let at = 1; at < whole.length; at += 1) {
      const events = cut(whole.slice(0, at), whole.slice(at));
      const keys = events.flatMap((event) => (event.kind === "keys" ? [event.text] : []));
      const text = events.flatMap((event) => (event.kind === "text" ? [event.text] : []));
      expect(keys.join("")).toBe("\u001b[1;5D");
      expect(text.join("")).toBe("abc");
    }
  });

  it("text beyond the Basic Multilingual Plane stays whole; other events pass as they are", () => {
    const typed = new TypedText();
    expect(
      typed.split([
        { kind: "keys", text: "修复😀" },
        { kind: "paste", text: "p" },
        { kind: "newline" },
      ]),
    ).toEqual([
      { kind: "text", text: "修复😀" },
      { kind: "paste", text: "p" },
      { kind: "newline" },
    ]);
  });
});
