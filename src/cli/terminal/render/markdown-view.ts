import { Lexer, type Token, type Tokens } from "marked";
import { collapseHiddenRuns } from "./hidden-characters.js";
import { layOutStyledLines, plain, type Run, type StyledLine } from "./styled-rows.js";
import { cellsOfText } from "./terminal-cells.js";
import {
  budgetedLexerOptions,
  MARKDOWN_BUDGET_MS,
  MAX_MARKDOWN_CHARS,
  MAX_MARKDOWN_DEPTH,
  nestingDepth,
} from "./markdown-budget.js";
import { rowsAsStreamed, type StreamedLayout } from "../progress/streamed-layout.js";
import { indentModelText, MODEL_INDENT } from "./terminal-layout.js";
import { escapeControlsKeepingLines, escapeForPrompt, escapeForTerminal } from "./terminal-text.js";

export interface MarkdownViewOptions {
  /** SGR styles (bold, italic, colours); without them the markdown's own markers stay. */
  readonly color: boolean;
  /** The terminal's width; `undefined` or 0: rows are not broken. */
  readonly columns: number | undefined;
  /** The clock the lexing budget is measured on (markdown-budget.ts); `Date.now` by default. */
  readonly now?: () => number;
  /** The answer as it streamed, if it did: its rows are the view when it is too long for markdown. */
  readonly streamed?: StreamedLayout | undefined;
}

const BOLD = "1";
const DIM = "2";
const ITALIC = "3";
const UNDERLINE = "4";
const STRIKE = "9";
const CODE = "36";
const RULE_CELLS = 40;
const BLANK: StyledLine = { first: [], rest: [], runs: [] };

/**
 * The final answer's markdown laid out for a terminal: headings, emphasis, lists, block quotes,
 * code, links with their URL, tables. `marked` only splits the text into tokens; every piece of it
 * that reaches the screen is escaped here (entities the lexer decodes included), hidden-character
 * runs are counted, no link becomes an OSC 8 hyperlink, and only this file adds escape sequences,
 * each closed on its own row.
 */
export function renderMarkdown(markdown: string, options: MarkdownViewOptions): string {
  // A long answer was escaped and laid out as it streamed; the end does not do it all again.
  const asStreamed = rowsAsStreamed(options.streamed, markdown, options.columns);
  if (asStreamed !== undefined) return asStreamed;
  // Escaped before lexing too: the lexer would turn a lone carriage return into a line break.
  const text = escapeControlsKeepingLines(collapseHiddenRuns(markdown));
  // Too big, too slow, too deep, or the library failed (a stack overflow): the answer as written.
  if (text.length > MAX_MARKDOWN_CHARS) return indentModelText(text, options.columns);
  try {
    const lexing = budgetedLexerOptions(options.now ?? Date.now, MARKDOWN_BUDGET_MS);
    const tokens = Lexer.lex(text, lexing);
    if (nestingDepth(tokens) > MAX_MARKDOWN_DEPTH) return indentModelText(text, options.columns);
    const view = new MarkdownView(options);
    return layOutStyledLines(view.blocks(tokens, true), options);
  } catch {
    return indentModelText(text, options.columns);
  }
}

class MarkdownView {
  readonly #color: boolean;
  readonly #columns: number | undefined;

  constructor(options: MarkdownViewOptions) {
    this.#color = options.color;
    this.#columns = options.columns;
  }

  /** Blocks one after another, with a blank line between them where `spaced`. */
  blocks(tokens: readonly Token[], spaced: boolean): StyledLine[] {
    const lines: StyledLine[] = [];
    for (const token of tokens) {
      const block = this.#block(token);
      if (block.length === 0) continue;
      if (spaced && lines.length > 0) lines.push(BLANK);
      lines.push(...block);
    }
    return lines;
  }

  #block(token: Token): StyledLine[] {
    switch (token.type) {
      case "space":
      case "def":
        return [];
      case "heading":
        return this.#heading(token as Tokens.Heading);
      case "paragraph":
        return asLines(this.inline((token as Tokens.Paragraph).tokens, []));
      case "text": {
        const text = token as Tokens.Text;
        return asLines(
          text.tokens === undefined ? [plain(safeText(text.text))] : this.inline(text.tokens, []),
        );
      }
      case "code":
        return this.#code(token as Tokens.Code);
      case "blockquote": {
        const bar = this.#styled("│ ", [DIM]);
        return nest(this.blocks((token as Tokens.Blockquote).tokens, true), bar, bar);
      }
      case "list":
        return this.#list(token as Tokens.List);
      case "table":
        return this.#table(token as Tokens.Table);
      case "hr":
        return [line([this.#styled("─".repeat(this.#ruleCells()), [DIM])])];
      case "html":
        return asLines([plain(safeText((token as Tokens.HTML).text.replace(/\n+$/u, "")))]);
      default:
        return "tokens" in token && Array.isArray(token.tokens)
          ? asLines(this.inline(token.tokens, []))
          : asLines([plain(safeText(token.raw))]);
    }
  }

  #heading(token: Tokens.Heading): StyledLine[] {
    const text = this.inline(token.tokens, token.depth === 1 ? [BOLD, UNDERLINE] : [BOLD]);
    const marker = this.#color ? [] : [plain(`${"#".repeat(token.depth)} `)];
    return asLines([...marker, ...text]);
  }

  #code(token: Tokens.Code): StyledLine[] {
    const fence = (text: string): StyledLine => line([this.#styled(text, [DIM])]);
    const indent = plain("  ");
    const body = safeCode(token.text)
      .split("\n")
      .map((text) => ({ first: [indent], rest: [indent], runs: [plain(text)] }));
    return [fence(`\`\`\`${escapeForPrompt(token.lang ?? "")}`), ...body, fence("```")];
  }

  #list(token: Tokens.List): StyledLine[] {
    const start = typeof token.start === "number" ? token.start : 1;
    const last = start + token.items.length - 1;
    const width = token.ordered ? `${last}.`.length + 1 : 2;
    const lines: StyledLine[] = [];
    for (const [index, item] of token.items.entries()) {
      const mark = token.ordered ? `${start + index}.`.padEnd(width) : "• ";
      // A tight task item's box is a block of its own: it goes in front of the item's first line.
      const [head, ...tail] = item.tokens;
      const box = head?.type === "checkbox" ? this.#inlineOne(head, []) : [];
      const body = this.blocks(box.length === 0 ? item.tokens : tail, item.loose);
      const [firstLine] = body;
      if (firstLine !== undefined) body[0] = { ...firstLine, runs: [...box, ...firstLine.runs] };
      if (token.loose && index > 0) lines.push(BLANK);
      lines.push(
        ...nest(body.length === 0 ? [BLANK] : body, plain(mark), plain(" ".repeat(width))),
      );
    }
    return lines;
  }

  #table(token: Tokens.Table): StyledLine[] {
    const cell = (tokens: readonly Token[], style: readonly string[]): Run[] =>
      this.inline(tokens, style).map((run) => ({ ...run, text: run.text.replaceAll("\n", " ") }));
    const header = token.header.map((head) => cell(head.tokens, [BOLD]));
    const rows = token.rows.map((row) => row.map((body) => cell(body.tokens, [])));
    const widths = header.map((_, column) =>
      Math.max(...[header, ...rows].map((row) => cellsOfRuns(row[column] ?? []))),
    );
    const render = (row: readonly Run[][]): StyledLine => {
      const runs: Run[] = [];
      for (const [column, width] of widths.entries()) {
        if (column > 0) runs.push(this.#styled(" │ ", [DIM]));
        const content = row[column] ?? [];
        const gap = width - cellsOfRuns(content);
        const align = token.align[column] ?? null;
        const before = align === "right" ? gap : align === "center" ? Math.floor(gap / 2) : 0;
        runs.push(plain(" ".repeat(before)), ...content, plain(" ".repeat(gap - before)));
      }
      return line(runs);
    };
    const rule = line([this.#styled(widths.map((w) => "─".repeat(w)).join("─┼─"), [DIM])]);
    return [render(header), rule, ...rows.map(render)];
  }

  /** Inline tokens as runs; a `\n` inside a run's text starts a new line. */
  inline(tokens: readonly Token[], style: readonly string[]): Run[] {
    const runs: Run[] = [];
    for (const token of tokens) runs.push(...this.#inlineOne(token, style));
    return runs;
  }

  #inlineOne(token: Token, style: readonly string[]): Run[] {
    switch (token.type) {
      case "text": {
        const text = token as Tokens.Text;
        return text.tokens === undefined
          ? [{ text: safeText(text.text), style }]
          : this.inline(text.tokens, style);
      }
      case "escape":
      case "html":
        return [{ text: safeText((token as Tokens.Escape).text), style }];
      case "strong":
        return this.#marked((token as Tokens.Strong).tokens, style, BOLD, "**");
      case "em":
        return this.#marked((token as Tokens.Em).tokens, style, ITALIC, "*");
      case "del":
        return this.#marked((token as Tokens.Del).tokens, style, STRIKE, "~~");
      case "codespan": {
        const code = safeCode((token as Tokens.Codespan).text).replaceAll("\n", " ");
        return this.#color ? [{ text: code, style: [...style, CODE] }] : [plain(`\`${code}\``)];
      }
      case "br":
        return [plain("\n")];
      case "checkbox":
        return [plain((token as Tokens.Checkbox).checked ? "[x] " : "[ ] ")];
      case "link":
        return this.#link(token as Tokens.Link, style);
      case "image": {
        const image = token as Tokens.Image;
        return [plain(`[image: ${safeText(image.text)}]`), ...this.#target(image.href)];
      }
      default:
        return "tokens" in token && Array.isArray(token.tokens)
          ? this.inline(token.tokens, style)
          : [{ text: safeText(token.raw), style }];
    }
  }

  /** A link is its text and, unless the text is the address itself, the address in brackets. */
  #link(token: Tokens.Link, style: readonly string[]): Run[] {
    const text = this.inline(token.tokens, this.#color ? [...style, UNDERLINE] : style);
    const shown = text.map((run) => run.text).join("");
    if (token.autolink === true || shown === safeUrl(token.href)) return text;
    return [...text, ...this.#target(token.href)];
  }

  #target(href: string): Run[] {
    return [plain(" ("), this.#styled(safeUrl(href), [DIM]), plain(")")];
  }

  /** With colour the style; without, the markdown's own markers around the text. */
  #marked(tokens: readonly Token[], style: readonly string[], sgr: string, marker: string): Run[] {
    if (this.#color) return this.inline(tokens, [...style, sgr]);
    return [plain(marker), ...this.inline(tokens, style), plain(marker)];
  }

  #styled(text: string, style: readonly string[]): Run {
    return { text, style: this.#color ? style : [] };
  }

  #ruleCells(): number {
    const columns = this.#columns ?? 0;
    // A box-drawing character is counted as two cells (it is wide in some locales).
    const fits = Math.floor((columns - 1 - MODEL_INDENT.length) / 2);
    return columns <= 0 ? RULE_CELLS : Math.max(Math.min(RULE_CELLS, fits), 1);
  }
}

/** Prose: controls and direction overrides shown as escapes, long invisible runs counted. */
function safeText(text: string): string {
  return escapeControlsKeepingLines(collapseHiddenRuns(text));
}

/**
 * Code and addresses are copied and typed: every hidden character in them is shown, one by one or
 * as a count; only line breaks and tabs in code stay.
 */
function safeCode(text: string): string {
  return text
    .split("\n")
    .map((row) => row.split("\t").map(safeUrl).join("\t"))
    .join("\n");
}

function safeUrl(text: string): string {
  return escapeForTerminal(collapseHiddenRuns(text));
}

function line(runs: readonly Run[]): StyledLine {
  return { first: [], rest: [], runs };
}

/** Runs split into lines at each `\n`. */
function asLines(runs: readonly Run[]): StyledLine[] {
  const lines: Run[][] = [[]];
  for (const run of runs) {
    const parts = run.text.split("\n");
    for (const [index, part] of parts.entries()) {
      if (index > 0) lines.push([]);
      if (part !== "") lines.at(-1)?.push({ text: part, style: run.style });
    }
  }
  return lines.map(line);
}

/** Lines inside a list item or a quote: `first` starts the first one, `rest` all the others. */
function nest(lines: readonly StyledLine[], first: Run, rest: Run): StyledLine[] {
  return lines.map((inner, index) => ({
    first: [index === 0 ? first : rest, ...inner.first],
    rest: [rest, ...inner.rest],
    runs: inner.runs,
  }));
}

function cellsOfRuns(runs: readonly Run[]): number {
  return runs.reduce((sum, run) => sum + cellsOfText(run.text), 0);
}
