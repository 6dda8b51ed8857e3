import { MAX_MARKDOWN_CHARS } from "../render/markdown-budget.js";

/**
 * A reply's text as it streamed in, and the rows it was shown in then (undimmed, without the line
 * break after the last row). For text escaped and laid out in one piece these are the rows
 * `indentModelText` gives: the final answer's view when it is too long to be laid out as
 * markdown, which need not be worked out a second time.
 */
export interface StreamedLayout {
  /** Everything that streamed, joined. */
  readonly text: string;
  /** The width the rows were broken for. */
  readonly columns: number | undefined;
  /** The length of `text` once escaped: what the markdown size bound is measured on. */
  readonly escapedChars: number;
  readonly rows: string;
}

/**
 * The view of `markdown` the streamed rows already are, if any: the answer is what streamed, on
 * a terminal of the same width, and too long to be laid out as markdown, so it is shown as
 * written, escaped and indented exactly as it was while it streamed.
 */
export function rowsAsStreamed(
  streamed: StreamedLayout | undefined,
  markdown: string,
  columns: number | undefined,
): string | undefined {
  if (streamed === undefined || streamed.escapedChars <= MAX_MARKDOWN_CHARS) return undefined;
  if (streamed.columns !== columns || streamed.text !== markdown) return undefined;
  return streamed.rows;
}
