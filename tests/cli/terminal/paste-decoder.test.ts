import { describe, expect, it } from "vitest";
import {
  PASTE_END,
  PASTE_START,
  PasteDecoder,
  type TerminalInputEvent,
} from "../../../src/cli/terminal/input/paste-decoder.js";

function feedAll(decoder: PasteDecoder, chunks: readonly string[]): TerminalInputEvent[] {
  return chunks.flatMap((chunk) => decoder.feed(chunk));
}

describe("PasteDecoder", () => {
  it("keys pass as keys; a bracketed paste is one event, CRs made newlines", () => {
    expect(
      feedAll(new PasteDecoder(), [`ab${PASTE_START}one\rtwo\r\nthree${PASTE_END}c\r`]),
    ).toEqual([
      { kind: "keys", text: "ab" },
      { kind: "paste", text: "one\ntwo\nthree" },
      { kind: "keys", text: "c\r" },
    ]);
  });

  it("finds markers split across reads, at every split point but right after the first ESC", () => {
    const whole = `x${PASTE_START}a\u001b[2Jb\u0003${PASTE_END}y`;
    for (let cut = 1; cut < whole.length; cut += 1) {
      // A read that ends in a lone ESC is the Escape key (it cannot wait for the next keystroke).
      if (cut === 2) continue;
      const events = feedAll(new PasteDecoder(), [whole.slice(0, cut), whole.slice(cut)]);
      expect(events.filter((event) => event.kind === "paste")).toEqual([
        { kind: "paste", text: "a\u001b[2Jb\u0003" },
      ]);
      const keys = events.flatMap((event) => (event.kind === "keys" ? [event.text] : []));
      expect(keys.join("")).toBe("xy");
    }
  });

  it("a lone Escape key is passed on at once, not held for the next read", () => {
    expect(new PasteDecoder().feed("\u001b")).toEqual([{ kind: "keys", text: "\u001b" }]);
  });

  it("Alt-Enter is a newline inside the message", () => {
    expect(new PasteDecoder().feed("one\u001b\rtwo\r")).toEqual([
      { kind: "keys", text: "one" },
      { kind: "newline" },
      { kind: "keys", text: "two\r" },
    ]);
  });

  it("a paste over the limit is refused with its size, without keeping it; keys go on", () => {
    const decoder = new PasteDecoder(1000);
    const megabyte = "x".repeat(64 * 1024);
    const chunks = [PASTE_START, ...Array.from({ length: 16 }, () => megabyte), PASTE_END, "ok\r"];
    expect(feedAll(decoder, chunks)).toEqual([
      { kind: "paste-refused", characters: 16 * 64 * 1024 },
      { kind: "keys", text: "ok\r" },
    ]);
  });

  it("a 1 MB paste at the default limit is refused quickly, never stalls", () => {
    const decoder = new PasteDecoder();
    const started = performance.now();
    const events = decoder.feed(`${PASTE_START}${"y".repeat(1024 * 1024)}${PASTE_END}`);
    expect(events).toEqual([{ kind: "paste-refused", characters: 1024 * 1024 }]);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
