import { describe, expect, it } from "vitest";
import {
  escapeForTerminal,
  truncateForDisplay,
} from "../../../src/cli/terminal/render/terminal-text.js";

describe("escapeForTerminal", () => {
  it.each([
    ["erase line and return", "ok\u001b[2K\rfake", "ok\\u{001b}[2K\\rfake"],
    ["one-byte CSI", "\u009b2Jcleared", "\\u{009b}2Jcleared"],
    ["OSC title with BEL", "\u001b]0;owned\u0007", "\\u{001b}]0;owned\\u{0007}"],
    ["newline and tab", "a\nb\tc", "a\\nb\\tc"],
    ["NUL, backspace, DEL", "\u0000\b\u007f", "\\u{0000}\\u{0008}\\u{007f}"],
    ["right-to-left override", "txt.\u202Eexe", "txt.\\u{202e}exe"],
    ["left-to-right isolate and pop", "\u2066x\u2069", "\\u{2066}x\\u{2069}"],
    ["Arabic letter mark", "\u061c", "\\u{061c}"],
    ["line and paragraph separators", "a\u2028b\u2029c", "a\\u{2028}b\\u{2029}c"],
    ["zero-width space, joiner, BOM", "\u200b\u200d\ufeff", "\\u{200b}\\u{200d}\\u{feff}"],
    ["word joiner", "a\u2060b", "a\\u{2060}b"],
    ["hidden tag characters", "ok\u{E0041}\u{E0042}", "ok\\u{e0041}\\u{e0042}"],
    ["lone surrogates", "\ud800x\udc00", "\\u{d800}x\\u{dc00}"],
  ])("shows %s escaped", (_name, input, shown) => {
    expect(escapeForTerminal(input)).toBe(shown);
  });

  it("leaves printable text alone, including CJK, accents and emoji", () => {
    const text = '写入 note.txt — café 🙂 {"path":"a\\\\b"} [y/N]';
    expect(escapeForTerminal(text)).toBe(text);
  });

  it("never lets an escape or carriage return through, whatever the input", () => {
    let everything = "";
    for (let code = 0; code <= 0x3000; code += 1) everything += String.fromCharCode(code);
    const leaked = Array.from(escapeForTerminal(everything)).filter((char) => {
      const code = char.codePointAt(0) ?? 0;
      return code < 0x20 || (code >= 0x7f && code <= 0x9f) || (code >= 0x2028 && code <= 0x202e);
    });
    expect(leaked).toEqual([]);
  });
});

describe("truncateForDisplay", () => {
  it("returns short text unchanged", () => {
    expect(truncateForDisplay("abc", 3)).toBe("abc");
  });

  it("cuts long text and says how many characters were left out", () => {
    expect(truncateForDisplay("a".repeat(44), 4)).toBe("aaaa… (40 more characters not shown)");
  });

  it("does not cut when the marker would be as long as what it hides, or longer", () => {
    // `… (32 more characters not shown)` is 32 characters: hiding 32 saves nothing.
    expect(truncateForDisplay("a".repeat(36), 4)).toBe("a".repeat(36));
    expect(truncateForDisplay("a".repeat(37), 4)).toBe("aaaa… (33 more characters not shown)");
    expect(truncateForDisplay("abcdef", 4)).toBe("abcdef");
  });

  it("counts an astral character as one and never splits its surrogate pair", () => {
    expect(truncateForDisplay("🙂".repeat(42), 2)).toBe("🙂🙂… (40 more characters not shown)");
  });
});
