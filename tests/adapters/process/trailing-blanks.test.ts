import { describe, expect, it } from "vitest";
import { TrailingBlanks } from "../../../src/adapters/process/trailing-blanks.js";

/** What the sink received, as text, after `finish()`. */
function stripped(pieces: readonly string[], mark = ""): string {
  const received: Buffer[] = [];
  const blanks = new TrailingBlanks(
    {
      append: (bytes) => {
        received.push(Buffer.from(bytes));
      },
    },
    mark,
  );
  for (const piece of pieces) blanks.append(Buffer.from(piece, "utf8"));
  blanks.finish();
  return Buffer.concat(received).toString("utf8");
}

describe("TrailingBlanks", () => {
  it.each([
    ["", ""],
    ["\n\n  \n", ""],
    ["a", "a"],
    ["a\n", "a\n"],
    ["a   \n", "a\n"],
    ["a \t\r\n", "a\n"],
    ["a\r\nb\r\n", "a\nb\n"],
    ["a\n\n\n", "a\n"],
    ["a  \n  \n\t\n", "a\n"],
    ["a\n\n  b  \n", "a\n\n  b\n"],
    ["\n\na", "\n\na"],
    ["x  y  ", "x  y"],
    ["progress 1\rprogress 2\n", "progress 1\rprogress 2\n"],
    ["[stderr] RuntimeException: \n", "[stderr] RuntimeException:\n"],
    ["caf\u00e9   \n", "caf\u00e9\n"],
  ])("%j becomes %j", (input, output) => {
    expect(stripped([input])).toBe(output);
  });

  it("gives the same text however the output is cut into reads", () => {
    const input = "head  \n\n\t\nmiddle \t x \r\n   \n  tail \n \n\n";
    const whole = stripped([input]);
    expect(whole).toBe("head\n\n\nmiddle \t x\n\n  tail\n");
    for (let first = 0; first <= input.length; first += 1) {
      for (let second = first; second <= input.length; second += 1) {
        const pieces = [input.slice(0, first), input.slice(first, second), input.slice(second)];
        expect(stripped(pieces)).toBe(whole);
      }
    }
  });

  it("counts a line of only the stderr mark as blank", () => {
    expect(
      stripped(["[stderr] a \n[stderr] \n", "[stderr] \n[stderr] b\n[stderr] \n"], "[stderr] "),
    ).toBe("[stderr] a\n\n\n[stderr] b\n");
    expect(stripped(["x [stderr] \n"], "[stderr] ")).toBe("x [stderr]\n");
    expect(stripped(["[stderr] \n"])).toBe("[stderr]\n");
  });

  it("passes on a blank run over its cap rather than holding it without bound", () => {
    const run = " ".repeat(1024 * 1024 + 1);
    expect(stripped(["a", run, "b\n"])).toBe(`a${run}b\n`);
    // Past the cap the run is passed on as it is; the line's end is still unknown then.
    expect(stripped(["a", run, "\n"])).toBe(`a${run}\n`);
  });
});
