import { collapseHiddenRuns } from "../render/hidden-characters.js";
import { cellsOf } from "../render/terminal-cells.js";

/**
 * A change that only swaps a tab for spaces, or adds a trailing blank, draws its `-` and `+` lines
 * alike: the person would approve a change they cannot see. Such blanks are drawn as marks: a tab
 * as `→` and the spaces up to its stop, a space as `·`. Only where they tell something, so a
 * tab-indented file's diff stays as the editor shows it:
 * - `all`: a removed line and the added line paired with it (the first removed with the first
 *   added of a change, and so on) that differ only in blanks: every tab and space of both;
 * - `trailing`: any other removed or added line: the tabs and spaces it ends with;
 * - `none`: context lines and hunk headers.
 */
export type WhitespaceShown = "none" | "trailing" | "all";

export interface DiffLine {
  readonly kind: " " | "-" | "+" | "@";
  readonly text: string;
}

export interface ShownDiffLine extends DiffLine {
  readonly whitespace: WhitespaceShown;
}

/** Columns between tab stops, counted from the line's own start (after the mark). */
const TAB_WIDTH = 4;
const TAB_MARK = "→";
const SPACE_MARK = "·";

/** Each line with the blanks it shows as marks (see `WhitespaceShown`). */
export function withWhitespaceShown(lines: readonly DiffLine[]): ShownDiffLine[] {
  const shown: ShownDiffLine[] = lines.map((line) => ({
    ...line,
    whitespace: line.kind === "-" || line.kind === "+" ? "trailing" : "none",
  }));
  let index = 0;
  while (index < shown.length) {
    const removedStart = index;
    while (shown[index]?.kind === "-") index += 1;
    const addedStart = index;
    while (shown[index]?.kind === "+") index += 1;
    const pairs = Math.min(addedStart - removedStart, index - addedStart);
    for (let pair = 0; pair < pairs; pair += 1) {
      const removed = shown[removedStart + pair];
      const added = shown[addedStart + pair];
      if (removed === undefined || added === undefined) continue;
      if (differOnlyInBlanks(removed.text, added.text)) {
        shown[removedStart + pair] = { ...removed, whitespace: "all" };
        shown[addedStart + pair] = { ...added, whitespace: "all" };
      }
    }
    if (index === removedStart) index += 1;
  }
  return shown;
}

function differOnlyInBlanks(removed: string, added: string): boolean {
  return removed !== added && removed.replace(BLANKS, "") === added.replace(BLANKS, "");
}

const BLANKS = /\s+/gu;

/**
 * A line's text as the diff draws it, before escaping: long runs of hidden characters counted,
 * each tab taken to the next stop (spaces, or `→` and spaces where shown), and the spaces shown
 * as `·` where asked. Every other control character stays for `escapeForTerminal` to show.
 */
export function diffLineText(text: string, whitespace: WhitespaceShown): string {
  const collapsed = collapseHiddenRuns(text);
  const marksFrom =
    whitespace === "all"
      ? 0
      : whitespace === "trailing"
        ? collapsed.replace(TRAILING_BLANKS, "").length
        : collapsed.length;
  if (!collapsed.includes("\t") && marksFrom >= collapsed.length) return collapsed;
  let drawn = "";
  let column = 0;
  let offset = 0;
  for (const char of collapsed) {
    const marked = offset >= marksFrom;
    offset += char.length;
    if (char === "\t") {
      const spaces = TAB_WIDTH - (column % TAB_WIDTH);
      drawn += marked ? `${TAB_MARK}${" ".repeat(spaces - 1)}` : " ".repeat(spaces);
      column += spaces;
    } else if (char === " " && marked) {
      drawn += SPACE_MARK;
      column += 1;
    } else {
      drawn += char;
      column += cellsOf(char);
    }
  }
  return drawn;
}

const TRAILING_BLANKS = /[ \t]+$/u;
