/**
 * How much work laying out the final answer's markdown may take. `marked`'s lexer is quadratic on
 * some inputs (runs of `__a`, a list item with thousands of lazy lines) and recursive in nesting
 * (thousands of `- ` or `>` overflow the stack), and it runs on the main thread, where a Ctrl-C
 * waits for it. So: an answer over a size is not lexed at all; lexing stops at a deadline (checked
 * by a lexer extension that marked calls before each block and inline token); an answer nested
 * deeper than a person reads is not laid out. Past any of these the answer is shown as written,
 * escaped and indented like any model text: never lost, never frozen.
 */
import type { MarkedOptions, Token } from "marked";

/** Past this many characters the answer is shown as written, unlexed. */
export const MAX_MARKDOWN_CHARS = 24 * 1024;
/** Lexing that has not finished after this long stops; the answer is shown as written. */
export const MARKDOWN_BUDGET_MS = 250;
/** Quotes and lists nested deeper than this are shown as written. */
export const MAX_MARKDOWN_DEPTH = 16;

/** Thrown from inside the lexer when the budget is spent; only the renderer catches it. */
export class MarkdownBudgetExceeded extends Error {
  override readonly name = "MarkdownBudgetExceeded";
}

/**
 * Lexer options whose extensions tokenize nothing and only look at the clock. `now` is injected
 * so a test can spend the budget without waiting for it.
 */
export function budgetedLexerOptions(now: () => number, budgetMs: number): MarkedOptions {
  const deadline = now() + budgetMs;
  const check = (): undefined => {
    if (now() > deadline) throw new MarkdownBudgetExceeded("markdown took too long to lay out");
    return undefined;
  };
  return {
    gfm: true,
    extensions: { renderers: {}, childTokens: {}, block: [check], inline: [check] },
  };
}

/** How deeply block quotes and lists nest in these tokens (a top-level paragraph: 0). */
export function nestingDepth(tokens: readonly Token[]): number {
  let deepest = 0;
  const pending: { readonly tokens: readonly Token[]; readonly depth: number }[] = [
    { tokens, depth: 0 },
  ];
  // A loop, not recursion: the point is not to overflow on exactly these inputs.
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    for (const token of next.tokens) {
      const nests = token.type === "blockquote" || token.type === "list";
      const depth = next.depth + (nests ? 1 : 0);
      deepest = Math.max(deepest, depth);
      if (token.type === "list") {
        for (const item of (token as { items: { tokens: Token[] }[] }).items) {
          pending.push({ tokens: item.tokens, depth });
        }
      } else if ("tokens" in token && Array.isArray(token.tokens)) {
        pending.push({ tokens: token.tokens, depth });
      }
    }
  }
  return deepest;
}
