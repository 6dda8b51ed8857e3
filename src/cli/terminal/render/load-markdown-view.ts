import type { renderMarkdown } from "./markdown-view.js";

export type RenderMarkdown = typeof renderMarkdown;

/**
 * The markdown view, with the `marked` lexer behind it, loaded when a terminal needs it: a piped
 * answer is printed as the model wrote it, and loading the lexer would cost every such start about
 * 10 ms. In the bundle (scripts/bundle.js) the dynamic import stays in the one file, but its
 * modules are evaluated only when this runs.
 */
export async function loadMarkdownView(): Promise<RenderMarkdown> {
  return (await import("./markdown-view.js")).renderMarkdown;
}
