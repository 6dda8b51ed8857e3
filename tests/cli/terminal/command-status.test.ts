import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CommandStatus } from "../../../src/cli/terminal/progress/command-status.js";
import type { CommandOptions, CommandRunner } from "../../../src/core/ports/command-runner.js";

function output(isTTY: boolean): { stream: PassThrough & { isTTY: boolean }; text: () => string } {
  const stream = Object.assign(new PassThrough(), { isTTY, columns: 60 });
  let text = "";
  stream.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
  });
  return { stream, text: () => text };
}

/** Prints `lines` through onOutput, 60 ms apart (on the fake clock), then ends. */
function slowRunner(lines: string[]): CommandRunner {
  return {
    shellName: "bash",
    run: async (_command: string, _cwd: string, options: CommandOptions) => {
      for (const line of lines) {
        options.onOutput?.(line);
        await new Promise((resolve) => setTimeout(resolve, 60));
      }
      return { exitCode: 0, output: lines.join(""), truncated: false, timedOut: false };
    },
  };
}

/** The limit is the command's own (`--command-timeout`), shown after the time it has run. */
const OPTIONS = { timeoutMs: 90_000, maxOutputBytes: 1000 };

/** Runs `runner` under the status on the fake clock, `ms` of it, and waits for its output. */
async function runFor(status: CommandStatus, runner: CommandRunner, ms: number): Promise<string> {
  const running = status.around(runner).run("x", "/", OPTIONS);
  await vi.advanceTimersByTimeAsync(ms);
  const result = await running;
  await new Promise((resolve) => setImmediate(resolve));
  return result.output;
}

// Timers and Date are fake (setImmediate stays real, to let the stream pass its data on): each test
// says how much time passes, so the redraws it sees do not depend on how loaded the machine is.
beforeEach(() => {
  vi.useFakeTimers({
    toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"],
  });
});

afterEach(() => {
  vi.useRealTimers();
});

describe("CommandStatus", () => {
  it("piped: plain indented lines with the seconds and the last line of output", async () => {
    const { stream, text } = output(false);
    let clock = 0;
    const status = new CommandStatus({
      output: stream,
      verbosity: "normal",
      color: false,
      now: () => (clock += 1000),
      pipedEveryMs: 50,
    });
    const captured = await runFor(status, slowRunner(["one\n", "two\u001b[2J\n"]), 120);
    expect(captured).toBe("one\ntwo\u001b[2J\n");
    // A line at 50 ms (after "one") and at 100 ms (after "two"); the clock adds a second a call.
    expect(text()).toBe("  … running 1s of 90 s · one\n  … running 2s of 90 s · two\\u{001b}[2J\n");
  });

  it("on a terminal: one row drawn at once, redrawn in place, and cleared at the end", async () => {
    const { stream, text } = output(true);
    const status = new CommandStatus({ output: stream, verbosity: "normal", color: false });
    await runFor(status, slowRunner(["building\n"]), 60);
    expect(text().startsWith("\r\u001b[2K  … running 0.0s of 90 s")).toBe(true);
    expect(text().endsWith("\r\u001b[2K")).toBe(true);
    expect(text()).not.toContain("\n");
  });

  it("shows the last line of a piece longer than the tail it keeps, after shorter pieces", async () => {
    const { stream, text } = output(false);
    let clock = 0;
    const status = new CommandStatus({
      output: stream,
      verbosity: "normal",
      color: false,
      now: () => (clock += 1000),
      pipedEveryMs: 50,
    });
    // The last piece stays up for several piped lines.
    const runner: CommandRunner = {
      shellName: "bash",
      run: async (_command: string, _cwd: string, options: CommandOptions) => {
        options.onOutput?.("short\n");
        options.onOutput?.(`${"x".repeat(100_000)}\nlong tail\n`);
        await new Promise((resolve) => setTimeout(resolve, 400));
        return { exitCode: 0, output: "", truncated: false, timedOut: false };
      },
    };
    await runFor(status, runner, 400);
    const lines = text()
      .split("\n")
      .filter((line) => line !== "");
    expect(lines.at(-1)).toMatch(/^ {2}… running \d+s of 90 s · long tail$/u);
  });

  it("shows nothing with --quiet", async () => {
    const { stream, text } = output(true);
    const status = new CommandStatus({ output: stream, verbosity: "quiet", color: false });
    await runFor(status, slowRunner(["x\n"]), 60);
    expect(text()).toBe("");
  });
});
