import { describe, expect, it } from "vitest";
import { commandSummary, stderrTail } from "../../../src/cli/terminal/progress/command-summary.js";

const ESC = String.fromCharCode(0x1b);

describe("a command's one-line summary", () => {
  it.each([
    ["the last line with anything on it", "building\ndone: 3 files\n\n  \n", "done: 3 files"],
    ["never blank", "\n \n\t\n", "(no output)"],
    ["a result without output", "(no output)", "(no output)"],
    ["the last thing a progress bar drew", "10%\r50%\r100%\r\n", "100%"],
    ["not the harness's own notice", "a\nlast\n[output truncated]", "last"],
    [
      "stderr too, marked",
      "ok\n[stderr] warning: x is deprecated\n",
      "[stderr] warning: x is deprecated",
    ],
  ])("is %s", (_name, output, expected) => {
    expect(commandSummary(output)).toBe(expected);
  });

  it.each([
    [
      "vitest",
      [
        " ❯ tests/sum.test.ts (2 tests | 1 failed) 4ms",
        "   × adds 3ms",
        " Test Files  1 failed (1)",
        "      Tests  1 failed | 1 passed (2)",
        "   Start at  10:00:00",
        "   Duration  312ms (transform 20ms)",
      ],
      "Tests 1 failed | 1 passed (2)",
    ],
    ["vitest, passing", ["      Tests  2 passed (2)", "   Duration  312ms"], "Tests 2 passed (2)"],
    [
      "jest, on stderr, before npm's own lines",
      [
        "[stderr] Tests:       1 failed, 2 passed, 3 total",
        "[stderr] Snapshots:   0 total",
        "[stderr] Time:        0.5 s",
        "[stderr] Ran all test suites.",
        "[stderr] npm error Lifecycle script `test` failed with error:",
        "[stderr] npm error code 1",
      ],
      "Tests: 1 failed, 2 passed, 3 total",
    ],
    [
      "mocha, whose failures follow its summary",
      ["  2 passing (5ms)", "  1 failing", "", "  1) adds:", "     AssertionError: 1 == 2"],
      "1 failing",
    ],
    [
      "pytest",
      ["FAILED test_sum.py::test_add - assert 1 == 2", "===== 1 failed, 2 passed in 0.12s ====="],
      "1 failed, 2 passed in 0.12s",
    ],
    ["pytest -q", ["..F", "1 failed, 2 passed in 0.03s"], "1 failed, 2 passed in 0.03s"],
    [
      "go test, several packages",
      [
        "--- FAIL: TestAdd (0.00s)",
        "FAIL",
        "FAIL\texample.com/m/sum\t0.003s",
        "ok  \texample.com/m/io\t0.010s",
      ],
      "FAIL example.com/m/sum 0.003s",
    ],
    [
      "cargo test",
      [
        "test tests::adds ... FAILED",
        "test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s",
        "[stderr] error: test failed, to rerun pass `--lib`",
      ],
      "test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; … (17 more characters not shown)",
    ],
    [
      "cargo test, passing: 0 failed is no failure",
      ["test result: ok. 3 passed; 0 failed; 0 ignored", "[stderr]    Doc-tests m"],
      "test result: ok. 3 passed; 0 failed; 0 ignored",
    ],
    [
      "colour codes dropped, other escapes shown",
      [`${ESC}[31mTests  1 failed${ESC}[39m | 1 passed (2)${ESC}]0;x\u0007`],
      "Tests 1 failed | 1 passed (2)\\u{001b}]0;x\\u{0007}",
    ],
  ])("is the test runner's summary: %s", (_name, lines, expected) => {
    expect(commandSummary(lines.join("\n"))).toBe(expected);
  });
});

describe("a failed command's stderr", () => {
  it("is its last five lines, escaped", () => {
    const output = [
      "out",
      ...["1", "2", "3", "4", "5", "6"].map((n) => `[stderr] line ${n}`),
      `[stderr] ${ESC}[2Khidden`,
      "more out",
    ].join("\n");
    expect(stderrTail(output)).toEqual([
      "[stderr] line 3",
      "[stderr] line 4",
      "[stderr] line 5",
      "[stderr] line 6",
      "[stderr] \\u{001b}[2Khidden",
    ]);
  });

  it("is nothing when the command wrote none", () => {
    expect(stderrTail("only\nstdout\n")).toEqual([]);
  });
});
