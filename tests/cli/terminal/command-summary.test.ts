import { describe, expect, it } from "vitest";
import {
  commandSummary,
  failureDetails,
  sandboxNoteRows,
  stderrTail,
} from "../../../src/cli/terminal/progress/command-summary.js";

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
      "python -m unittest, passing (it writes to stderr)",
      [
        "[stderr] ....",
        "[stderr] " + "-".repeat(70),
        "[stderr] Ran 4 tests in 0.001s",
        "[stderr] OK",
      ],
      "Ran 4 tests in 0.001s: OK",
    ],
    [
      "python -m unittest, failing",
      [
        "[stderr] .F",
        "[stderr] FAIL: test_add (test_ops.TestOps.test_add)",
        "[stderr] AssertionError: 1 != 2",
        "[stderr] Ran 2 tests in 0.002s",
        "[stderr] FAILED (failures=1)",
      ],
      "Ran 2 tests in 0.002s: FAILED (failures=1)",
    ],
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
      // 97 characters: the marker would be longer than the 17 it hid, so the line is whole.
      "test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s",
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
    ["ava, failing", ["  ✘ [fail]: adds", "  ─", "", "  1 test failed"], "1 test failed"],
    ["ava, passing", ["  ✔ adds", "  ─", "", "  ✔ 3 tests passed"], "✔ 3 tests passed"],
    [
      "node:test, failing",
      [
        "✖ adds (1.2ms)",
        "ℹ tests 3",
        "ℹ suites 0",
        "ℹ pass 2",
        "ℹ fail 1",
        "ℹ cancelled 0",
        "ℹ duration_ms 40.1",
      ],
      "ℹ fail 1",
    ],
    [
      "node:test, passing",
      ["ℹ tests 3", "ℹ pass 3", "ℹ fail 0", "ℹ skipped 0", "ℹ duration_ms 40.1"],
      "ℹ pass 3",
    ],
    ["node --test's TAP, tape", ["1..3", "# tests 3", "# pass  2", "# fail  1"], "# fail 1"],
    ["tape, passing", ["1..3", "# tests 3", "# pass  3", "", "# ok"], "# pass 3"],
    [
      "tap's TAP",
      ["not ok 1 - adds", "# failed 1 of 3 tests", "# time=20ms"],
      "# failed 1 of 3 tests",
    ],
    [
      "tap's own reporter",
      ["Suites:   1 failed, 1 of 1 completed", "Asserts:  1 failed, 2 passed, of 3"],
      "Asserts: 1 failed, 2 passed, of 3",
    ],
    [
      "uvu, one failing",
      ["  Total:     3", "  Passed:    2", "  Skipped:   0", "  Duration:  1.23ms"],
      "Passed: 2 of 3",
    ],
    [
      "bun, failing",
      [" 2 pass", " 1 fail", " 3 expect() calls", "Ran 3 tests across 1 files. [12.00ms]"],
      "1 fail",
    ],
    [
      "bun, passing",
      [" 3 pass", " 0 fail", "Ran 3 tests across 1 file. [9.00ms]"],
      "Ran 3 tests across 1 file. [9.00ms]",
    ],
    [
      "deno, failing",
      ["FAILED | 1 passed | 1 failed (15ms)", "", "error: Test failed"],
      "FAILED | 1 passed | 1 failed (15ms)",
    ],
    ["deno, passing", ["ok | 2 passed | 0 failed (12ms)"], "ok | 2 passed | 0 failed (12ms)"],
  ])("is the test runner's summary: %s", (_name, lines, expected) => {
    expect(commandSummary(lines.join("\n"))).toBe(expected);
  });
});

describe("what a failed command shows under its line", () => {
  it("is the runner's summary and stderr's tail when a runner summed up", () => {
    const output = ["running", "  1 test failed", "[stderr] npm error code 1"].join("\n");
    expect(failureDetails(output)).toEqual(["1 test failed", "[stderr] npm error code 1"]);
  });

  it("is the last five lines, stdout and stderr alike, when none did", () => {
    const output = [
      "one",
      "two",
      "Error: cannot find module './sum'",
      "    at require (node:internal)",
      "[stderr] warning: deprecated",
      "exit status 1",
    ].join("\n");
    expect(failureDetails(output)).toEqual([
      "two",
      "Error: cannot find module './sum'",
      "at require (node:internal)",
      "[stderr] warning: deprecated",
      "exit status 1",
    ]);
  });

  it("counts a line the command printed like a sandbox note as one of its own", () => {
    const output = ["one", "two", "three", "four", "five", "[sandbox] note: all is well"];
    expect(failureDetails(output.join("\n"))).toEqual([
      "two",
      "three",
      "four",
      "five",
      "[sandbox] note: all is well",
    ]);
    expect(commandSummary(output.join("\n"))).toBe("[sandbox] note: all is well");
  });
});

describe("the sandbox's notes as the person sees them", () => {
  it("are one row each, a newline, a carriage return or an ESC in a path escaped", () => {
    expect(
      sandboxNoteRows([
        "warning: /ws/a\nb/AGENTS.md was created during this command",
        `warning: /ws/x\r${ESC}[2Ky was created during this command`,
        "stopped: CPU time limit 2 s reached",
      ]),
    ).toEqual([
      "[sandbox] warning: /ws/a\\nb/AGENTS.md was created during this command",
      "[sandbox] warning: /ws/x\\r\\u{001b}[2Ky was created during this command",
      "[sandbox] stopped: CPU time limit 2 s reached",
    ]);
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
