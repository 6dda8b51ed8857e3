import { describe, expect, it } from "vitest";
import { collapseHiddenRuns } from "../../../src/cli/terminal/render/hidden-characters.js";
import { StreamedText } from "../../../src/cli/terminal/progress/streamed-text.js";
import { layOutStyledLines, type Run } from "../../../src/cli/terminal/render/styled-rows.js";
import { indentModelText, layOutLine } from "../../../src/cli/terminal/render/terminal-layout.js";
import {
  escapeControlsKeepingLines,
  escapeForPrompt,
  escapeForTerminal,
} from "../../../src/cli/terminal/render/terminal-text.js";
import * as before from "./reference/before-fast-path.js";
import { seededRandom } from "../../support/seeded-random.js";

/**
 * The escaping and layout copy runs of plain text at once instead of looking at each character
 * (issue 32). They must give exactly what the character-by-character code gave, kept verbatim in
 * reference/before-fast-path.ts, on text built to hit every case: controls, the one-byte CSI,
 * direction overrides, zero-width and tag characters, combining marks (some of them also
 * default-ignorable), lone and paired surrogates, wide characters, and runs around each limit.
 */
const PIECES = [
  "a",
  "word",
  "Z9",
  " ",
  " ",
  "\t",
  "\n",
  "\r",
  "\r\n",
  "\u001b[2J",
  "\u009b31m",
  "\u0007",
  "\u007f",
  "\u0085",
  "\u200b",
  "\u200d",
  "\u00a0",
  "\u3000",
  "\u3164",
  "\u2800",
  "\ufffc",
  "\u{133fc}",
  "\u{e0041}",
  "\u202e",
  "\u2066",
  "\u2028",
  "\u0301",
  "\u034f",
  "\ufe0f",
  "\u20dd",
  "é",
  "中文",
  "😀",
  "👩‍💻",
  "\ud83d",
  "\ude00",
  "\ue000",
  "\u0378",
  "—",
  "`code`",
  "**b**",
  " ".repeat(31),
  " ".repeat(32),
  "\n".repeat(40),
  " \t".repeat(20),
  "\u200b".repeat(3),
  "\u200b".repeat(4),
  "\u00a0".repeat(50),
  "\u0301".repeat(15),
  "\u0301".repeat(16),
  "x".repeat(90),
  "ab".repeat(130),
] as const;

function texts(count: number, seed: number): string[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const length = Math.floor(random() * 40);
    let text = "";
    for (let i = 0; i < length; i += 1) text += PIECES[Math.floor(random() * PIECES.length)] ?? "";
    return text;
  });
}

const CASES = texts(600, 32);
const COLUMNS = [undefined, 0, 1, 7, 24, 41, 80] as const;

describe("the fast paths of terminal escaping and layout", () => {
  it("escape exactly as the character-by-character code did", () => {
    for (const text of CASES) {
      expect(collapseHiddenRuns(text)).toBe(before.collapseHiddenRuns(text));
      expect(escapeForTerminal(text)).toBe(before.escapeForTerminal(text));
      expect(escapeForPrompt(text)).toBe(before.escapeForPrompt(text));
      expect(escapeControlsKeepingLines(text)).toBe(before.escapeControlsKeepingLines(text));
    }
  });

  it("break rows exactly as the character-by-character code did", () => {
    for (const text of CASES) {
      const line = before.escapeForPrompt(text);
      for (const columns of COLUMNS) {
        for (const [first, rest] of [
          ["  ", "  "],
          ["\t→ ", "    "],
          ["", ""],
        ] as const) {
          expect(layOutLine(line, { columns, first, rest })).toBe(
            before.layOutLine(line, { columns, first, rest }),
          );
        }
        expect(indentModelText(text, columns)).toBe(before.indentModelText(text, columns));
      }
    }
  });

  it("stream exactly as the character-by-character code did, however the text is cut", () => {
    const random = seededRandom(7);
    for (const text of CASES.slice(0, 200)) {
      for (const columns of COLUMNS) {
        const now = new StreamedText(columns);
        const then = new before.StreamedText(columns);
        let at = 0;
        while (at < text.length) {
          const next = at + 1 + Math.floor(random() * 12);
          const piece = text.slice(at, next);
          expect(now.add(piece)).toBe(then.add(piece));
          at = next;
        }
        expect(now.end()).toBe(then.end());
        expect(now.rowsAbove).toBe(then.rowsAbove);
      }
    }
  });

  it("lay out styled lines exactly as the cell-by-cell code did", () => {
    const random = seededRandom(11);
    const styles: readonly (readonly string[])[] = [[], ["1"], ["1", "4"], ["36"]];
    const runsOf = (text: string): Run[] => {
      const runs: Run[] = [];
      let at = 0;
      while (at < text.length) {
        let next = at + Math.floor(random() * 9);
        // Runs are whole strings from the lexer: never the two halves of one character.
        if (/[\ud800-\udbff]/u.test(text[next - 1] ?? "")) next += 1;
        const style = styles[Math.floor(random() * styles.length)] ?? [];
        runs.push({ text: text.slice(at, next), style });
        at = Math.max(next, at + 1);
      }
      return runs;
    };
    for (const text of CASES.slice(0, 300)) {
      const safe = before.escapeForPrompt(text);
      const lines = [
        { first: [], rest: [], runs: runsOf(safe) },
        {
          first: [{ text: "• ", style: [] }],
          rest: [{ text: "  ", style: [] }],
          runs: runsOf(safe),
        },
        { first: [{ text: "│ ", style: ["2"] }], rest: [{ text: "│ ", style: ["2"] }], runs: [] },
      ];
      for (const columns of COLUMNS) {
        for (const color of [false, true]) {
          expect(layOutStyledLines(lines, { columns, color })).toBe(
            before.layOutStyledLines(lines, { columns, color }),
          );
        }
      }
    }
  });

  it("is checked against texts that reach every limit", () => {
    const joined = CASES.join("");
    expect(joined).toContain(" ".repeat(32));
    expect(collapseHiddenRuns(joined)).toContain("combining marks⟩");
    expect(collapseHiddenRuns(joined)).toContain("spaces⟩");
    expect(escapeControlsKeepingLines(joined)).toContain("\\u{001b}");
  });
});
