/**
 * Issue 32: a long final answer, too long to be laid out as markdown, is shown in the rows it
 * streamed in rather than escaped and laid out a second time. That is only right if those rows
 * are exactly what the whole text gives at once, however the stream cut it: checked here on
 * hostile text (controls, the one-byte CSI, direction overrides, zero-width and blank runs around
 * every limit, combining marks, surrogates cut in half, CRLF cut in half, wide characters).
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { collapseHiddenRuns } from "../../../src/cli/terminal/render/hidden-characters.js";
import { MAX_MARKDOWN_CHARS } from "../../../src/cli/terminal/render/markdown-budget.js";
import { renderMarkdown } from "../../../src/cli/terminal/render/markdown-view.js";
import { ProgressReporter } from "../../../src/cli/terminal/progress/progress-reporter.js";
import {
  rowsAsStreamed,
  type StreamedLayout,
} from "../../../src/cli/terminal/progress/streamed-layout.js";
import { StreamedText } from "../../../src/cli/terminal/progress/streamed-text.js";
import { indentModelText } from "../../../src/cli/terminal/render/terminal-layout.js";
import { escapeControlsKeepingLines } from "../../../src/cli/terminal/render/terminal-text.js";
import type { ModelReply } from "../../../src/core/ports/model.js";
import { seededRandom } from "../../support/seeded-random.js";

const PIECES = [
  "word",
  "Z9 ",
  " ",
  "\t",
  "\n",
  "\r",
  "\r\n",
  "\u001b[2J",
  "\u009b31m",
  "\u007f",
  "\u200b",
  "\u200b".repeat(4),
  "\u00a0".repeat(50),
  "\u3164",
  "\u{e0041}",
  "\u202e",
  "\u2028",
  "\u0301",
  "\u0301".repeat(16),
  "\u034f",
  "é",
  "—",
  "中文",
  "😀",
  "\ud83d",
  "\ude00",
  " ".repeat(32),
  "\n".repeat(40),
  "x".repeat(90),
] as const;

function hostileText(random: () => number, pieces: number): string {
  let text = "";
  for (let i = 0; i < pieces; i += 1) text += PIECES[Math.floor(random() * PIECES.length)] ?? "";
  return text;
}

/** `text` streamed in pieces of 1 to `longest` characters, cut anywhere (pairs and CRLF too). */
function streamed(text: string, columns: number | undefined, random: () => number, longest = 12) {
  const stream = new StreamedText(columns);
  let shown = "";
  for (let at = 0; at < text.length;) {
    const next = at + 1 + Math.floor(random() * longest);
    shown += stream.add(text.slice(at, next));
    at = next;
  }
  shown += stream.end();
  return { layout: stream.laidOut(), shown };
}

/** What the final answer shows when it is too long for markdown, worked out from the whole text. */
function asWrittenAtOnce(text: string, columns: number | undefined): string {
  const escaped = escapeControlsKeepingLines(collapseHiddenRuns(text));
  return escaped === "" ? "" : indentModelText(escaped, columns);
}

describe("the rows a text streamed in", () => {
  it("are the rows of the whole text escaped and laid out at once, however it was cut", () => {
    const random = seededRandom(32);
    for (let round = 0; round < 400; round += 1) {
      const text = hostileText(random, Math.floor(random() * 40));
      for (const columns of [undefined, 0, 1, 7, 24, 41, 80]) {
        const { layout, shown } = streamed(text, columns, random);
        if (layout === undefined) throw new Error("a short text was counted in parts");
        expect(layout.text).toBe(text);
        expect(layout.columns).toBe(columns);
        expect(layout.rows).toBe(asWrittenAtOnce(text, columns));
        expect(layout.escapedChars).toBe(
          escapeControlsKeepingLines(collapseHiddenRuns(text)).length,
        );
        // What was written is those rows, and the line break after the last.
        expect(shown).toBe(layout.rows === "" ? "" : `${layout.rows}\n`);
      }
    }
  });

  it("are the same for a long hostile answer streamed in large and small pieces", () => {
    const random = seededRandom(7);
    let text = "";
    while (text.length <= MAX_MARKDOWN_CHARS * 2) text += hostileText(random, 50);
    for (const longest of [3, 700, 70_000]) {
      const { layout } = streamed(text, 100, random, longest);
      expect(layout?.rows).toBe(asWrittenAtOnce(text, 100));
    }
  });

  it("are not kept when a blank run too long to hold back was counted in parts", () => {
    const random = seededRandom(3);
    const { layout, shown } = streamed(`a${" ".repeat(10_000)}b`, 80, random, 100);
    expect(layout).toBeUndefined();
    expect(shown).toContain("spaces⟩");
  });
});

describe("the final answer shown in the rows it streamed in", () => {
  const long = "Plain words, \u001b[2J and a hidden\u200b\u200b\u200b\u200b\u200b run.\n".repeat(
    800,
  );

  function layoutOf(text: string, columns: number | undefined): StreamedLayout {
    const stream = new StreamedText(columns);
    for (let at = 0; at < text.length; at += 30) stream.add(text.slice(at, at + 30));
    stream.end();
    const layout = stream.laidOut();
    if (layout === undefined) throw new Error("not laid out");
    return layout;
  }

  it("is exactly the view worked out again from the whole answer", () => {
    expect(long.length).toBeGreaterThan(MAX_MARKDOWN_CHARS);
    const options = { color: true, columns: 80 };
    const streamedView = renderMarkdown(long, { ...options, streamed: layoutOf(long, 80) });
    expect(streamedView).toBe(renderMarkdown(long, options));
    expect(streamedView).not.toContain("\u001b");
    expect(streamedView).toContain("⟨5 × U+200B⟩");
  });

  it("is used only for the same text, at the same width, too long for markdown", () => {
    const layout: StreamedLayout = { ...layoutOf(long, 80), rows: "the streamed rows" };
    expect(rowsAsStreamed(layout, long, 80)).toBe("the streamed rows");
    expect(renderMarkdown(long, { color: true, columns: 80, streamed: layout })).toBe(
      "the streamed rows",
    );
    expect(rowsAsStreamed(layout, `${long}.`, 80)).toBeUndefined();
    expect(rowsAsStreamed(layout, long, 100)).toBeUndefined();
    expect(rowsAsStreamed(undefined, long, 80)).toBeUndefined();
    const short = "# A heading\n\n**bold**";
    const shortLayout: StreamedLayout = { ...layoutOf(short, 80), rows: "the streamed rows" };
    expect(rowsAsStreamed(shortLayout, short, 80)).toBeUndefined();
    // Short, it is laid out as markdown whatever streamed.
    expect(renderMarkdown(short, { color: false, columns: 80, streamed: shortLayout })).toBe(
      "  # A heading\n  \n  **bold**",
    );
  });
});

describe("the progress reporter's last streamed answer", () => {
  const reply = (content: string, withTools: boolean): ModelReply => ({
    message: {
      role: "assistant",
      content,
      toolCalls: withTools ? [{ id: "c1", name: "read_file", arguments: "{}" }] : [],
    },
    finishReason: withTools ? "tool_calls" : "stop",
  });
  const terminal = (): ProgressReporter =>
    new ProgressReporter({
      output: Object.assign(new PassThrough(), { isTTY: true, columns: 80, rows: 24 }),
      verbosity: "normal",
      color: false,
    });

  it("is the final reply as it streamed, and only until the next request", () => {
    const progress = terminal();
    progress.onModelRequest(1, 5);
    progress.onTextDelta("Let me ");
    progress.onTextDelta("look.");
    progress.onModelReply(reply("Let me look.", true));
    expect(progress.lastAnswer).toBeUndefined();
    progress.onModelRequest(2, 5);
    progress.onTextDelta("All ");
    progress.onTextDelta("done.");
    progress.onModelReply(reply("All done.", false));
    expect(progress.lastAnswer).toEqual({
      text: "All done.",
      columns: 80,
      escapedChars: 9,
      rows: "  All done.",
    });
    progress.onModelRequest(3, 5);
    expect(progress.lastAnswer).toBeUndefined();
    progress.finish(3, undefined);
  });

  it("is nothing when the reply was not streamed to a terminal", () => {
    const progress = new ProgressReporter({
      output: Object.assign(new PassThrough(), { isTTY: false }),
      verbosity: "normal",
      color: false,
    });
    progress.onTextDelta("All done.");
    progress.onModelReply(reply("All done.", false));
    expect(progress.lastAnswer).toBeUndefined();
  });
});
