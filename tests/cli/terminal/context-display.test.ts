/**
 * The context budget on screen (issue 26): "context N% used" on the status line and, on a
 * terminal, the closing line; a line per compaction; the conversation's /compact, /clear, /context.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { ProgressReporter } from "../../../src/cli/terminal/progress/progress-reporter.js";
import {
  runContextCommand,
  type ContextCommands,
} from "../../../src/cli/terminal/input/context-commands.js";
import { JournalWriteError } from "../../../src/core/common/agent-errors.js";
import type { Message } from "../../../src/core/ports/messages.js";

const CLEAR = "\r\u001b[2K";

function output(isTTY: boolean): { stream: PassThrough & { isTTY: boolean }; text: () => string } {
  const stream = Object.assign(new PassThrough(), { isTTY });
  let text = "";
  stream.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
  return { stream, text: () => text };
}

describe("the status and closing lines", () => {
  it("on a terminal: the spinner and the closing line say how full the window is", () => {
    const { stream, text } = output(true);
    let now = 0;
    const progress = new ProgressReporter({
      output: stream,
      verbosity: "normal",
      color: false,
      now: () => now,
    });
    progress.onContextUsage(1_000, 16_384);
    progress.onModelRequest(2, 200);
    now = 1_500;
    progress.onContextUsage(4_096, 16_384);
    progress.finish(2, undefined);
    expect(text()).toContain("waiting for the model · 0.0s · turn 2/200 · context 6% used");
    expect(text().endsWith(`${CLEAR}done in 2 turns · context 25% used\n`)).toBe(true);
  });

  it("piped: the closing line stays as it was", () => {
    const { stream, text } = output(false);
    const progress = new ProgressReporter({ output: stream, verbosity: "normal", color: false });
    progress.onContextUsage(4_096, 16_384);
    progress.finish(1, undefined);
    expect(text()).toBe("done in 1 turn\n");
  });

  it("a compaction is one line; a failed summary a warning; nothing to do or to gain is said only when asked", () => {
    const { stream, text } = output(false);
    const progress = new ProgressReporter({ output: stream, verbosity: "normal", color: false });
    progress.onCompaction({
      kind: "compacted",
      reason: "auto",
      tokensBefore: 13_200,
      tokensAfter: 4_100,
    });
    progress.onCompaction({ kind: "summary_failed", cause: "HTTP 500\u001b[2J" });
    progress.onCompaction({ kind: "nothing_to_compact", reason: "auto" });
    progress.onCompaction({ kind: "nothing_to_compact", reason: "command" });
    progress.onCompaction({ kind: "not_smaller", reason: "auto", tokens: 30_000 });
    progress.onCompaction({ kind: "not_smaller", reason: "command", tokens: 1_045 });
    expect(text().split("\n")).toEqual([
      "context compacted before the window filled: ~13200 → ~4100 tokens (older turns summarized)",
      "agent: warning: the summary for compaction failed (HTTP 500\\u{001b}[2J); going on uncompacted",
      "context: nothing older to compact",
      "context: compacting would not make the history smaller (~1045 tokens); left as it is",
      "",
    ]);
  });
});

describe("the compaction line on an 80-column terminal", () => {
  it("wraps between words, its wrapped row indented", () => {
    const { stream, text } = output(true);
    Object.assign(stream, { columns: 80 });
    const progress = new ProgressReporter({ output: stream, verbosity: "normal", color: false });
    progress.onCompaction({
      kind: "compacted",
      reason: "auto",
      tokensBefore: 4793,
      tokensAfter: 3646,
    });
    expect(text().split("\n")).toEqual([
      "context compacted before the window filled: ~4793 → ~3646 tokens (older turns",
      "  summarized)",
      "",
    ]);
  });
});

describe("/compact, /clear and /context", () => {
  const history: Message[] = [
    { role: "system", content: "sys" },
    { role: "user", content: "task" },
  ];
  const calls: string[] = [];
  const commands: ContextCommands = {
    compactNow: (given) => {
      calls.push("compact");
      return Promise.resolve([...given, { role: "user", content: "summary" }]);
    },
    clearHistory: (given) => {
      calls.push("clear");
      return Promise.resolve(given.slice(0, 1));
    },
    describeContext: (given) => [`context: ${String(given.length)} messages`],
  };
  const signal = new AbortController().signal;

  it("each returns the history the next turn goes on from", async () => {
    const { stream, text } = output(false);
    expect(await runContextCommand("/context", history, commands, stream, signal)).toBe(history);
    expect(await runContextCommand("/compact", history, commands, stream, signal)).toHaveLength(3);
    expect(await runContextCommand("/clear", history, commands, stream, signal)).toEqual([
      history[0],
    ]);
    expect(text()).toBe(
      "context: 2 messages\nagent: history cleared; the next line starts afresh in this session\n",
    );
  });

  it("before the first turn there is nothing to compact or clear, and the agent is not asked", async () => {
    calls.length = 0;
    const { stream, text } = output(false);
    expect(
      await runContextCommand("/compact", undefined, commands, stream, signal),
    ).toBeUndefined();
    expect(await runContextCommand("/clear", undefined, commands, stream, signal)).toBeUndefined();
    expect(calls).toEqual([]);
    expect(text()).toBe("agent: nothing to compact yet\nagent: the history is already empty\n");
  });

  it("a failure is one line and the history stays", async () => {
    const { stream, text } = output(false);
    const failing: ContextCommands = {
      ...commands,
      clearHistory: () =>
        Promise.reject(new JournalWriteError("The run journal could not be written")),
    };
    expect(await runContextCommand("/clear", history, failing, stream, signal)).toBe(history);
    expect(text()).toBe("agent: The run journal could not be written\n");
  });
});
