import { collapseHiddenRuns } from "../render/hidden-characters.js";
import { escapeForTerminal, truncateForDisplay } from "../render/terminal-text.js";

/** The tools whose result is a command's output (`CommandTool` in the profiles). */
const COMMAND_TOOLS: ReadonlySet<string> = new Set(["shell", "run_command"]);

/** The error codes of a command that ran, or started to: their output is worth a look. */
const RAN_CODES: ReadonlySet<string> = new Set([
  "shell_failed",
  "shell_timeout",
  "shell_cancelled",
]);

const STDERR_MARK = "[stderr] ";
const SUMMARY_CHARS = 80;
const STDERR_LINES = 5;
/** The lines shown under a failed command that printed no runner summary. */
const TAIL_LINES = 5;

/**
 * The closing line of the common test runners, as they print it without colour: vitest
 * (`Tests  1 failed | 2 passed (3)`), jest (`Tests: 1 failed, 2 passed, 3 total`), mocha
 * (`1 failing`), pytest (`=== 1 failed, 2 passed in 0.12s ===`), go test (`FAIL  example.com/m  0.01s`),
 * cargo test (`test result: FAILED. 1 passed; 1 failed; …`), ava (`1 test failed`,
 * `✔ 3 tests passed`), node:test (`ℹ pass 3`, `ℹ fail 1`; `# pass 3` with the TAP reporter, as
 * tape prints it), tap (`# failed 1 of 3 tests`, `Asserts:  1 failed, 2 passed, of 3`), uvu
 * (`Passed:  2`, after `Total:  3`), bun (`1 fail`, `Ran 3 tests across 1 file.`), deno
 * (`FAILED | 1 passed | 1 failed (15ms)`) and unittest (`Ran 4 tests in 0.001s`, then `OK`). A count of zero failures is no summary of its own (the
 * passes are). `npm test` prints one of these before its own lines, which is why the summary is
 * searched for rather than taken from the end.
 */
const RUNNER_SUMMARIES: readonly RegExp[] = [
  /^Tests:?\s+\d+ \w+/u,
  /^\d+ (passing|failing|pending)\b/u,
  /^=*\s*(no tests ran|\d+ (passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?)\b.*) in [\d.]+s\b/u,
  /^(ok|FAIL)\s+\S+\s+([\d.]+s|\(cached\)|\[[\w ]+\])/u,
  /^test result: (ok|FAILED)\./u,
  // ava (✔ U+2714, ✘ U+2718; escaped so that the bundle stays ASCII, see scripts/bundle.js)
  /^(\u2714 |\u2718 )?\d+ tests? (passed|failed)$/u,
  /^(\u2718 )?[1-9]\d* (uncaught exceptions?|unhandled rejections?)$/u,
  // node:test (spec and TAP reporters; ℹ U+2139), tape
  /^(\u2139|#) (pass \d+|fail [1-9]\d*)$/u,
  // tap
  /^# failed [1-9]\d* of \d+ tests?$/u,
  /^Asserts: \d+ (failed|passed)\b/u,
  // uvu (made `Passed: 2 of 3` below)
  /^Passed: \d+ of \d+$/u,
  // bun
  /^(\d+ pass|[1-9]\d* fail)$/u,
  /^Ran \d+ tests? across \d+ files?\./u,
  // deno
  /^(ok|FAILED) \| \d+ passed\b/u,
  // python -m unittest (made `Ran 4 tests in 0.001s: OK` below)
  /^Ran \d+ tests? in [\d.]+s: (OK|FAILED)\b/u,
];
const SAYS_FAILED =
  /\b([1-9]\d* (failed|failing|fail|errors?)|(fail|failed) [1-9]\d*|FAIL|FAILED)\b|^\u2718/u;

/** Colour changes (SGR) only: dropping them hides nothing, and every other escape stays visible. */
// eslint-disable-next-line no-control-regex -- ESC is exactly what this looks for
const COLOUR = /\u001b\[[\d;]*m/gu;

/** Whether a call's result is a command's output, to be summed up as one. */
export function isCommandTool(name: string): boolean {
  return COMMAND_TOOLS.has(name);
}

/** Whether a failed command's result carries what it printed (it ran, or began to). */
export function commandRan(errorCode: string | undefined): boolean {
  return errorCode !== undefined && RAN_CODES.has(errorCode);
}

/**
 * One line for what a command printed: a test runner's summary when there is one (a failing one
 * first), else its last line with anything on it; never blank. Escaped for the terminal.
 */
export function commandSummary(output: string): string {
  const lines = meaningfulLines(output);
  const chosen = runnerSummary(lines) ?? lines.at(-1)?.replace(COLOUR, "") ?? "(no output)";
  return shown(chosen.replace(/^=+\s*|\s*=+$/gu, ""));
}

/**
 * What to show under a failed command: a test runner's summary and the last lines of stderr; or,
 * when no runner summed up, the last lines it printed, stdout and stderr alike (the reason is as
 * often in stdout), each escaped. `output` is what the command printed, without the sandbox's
 * notes: a line of it that reads like one is the command's own, and shown as such.
 */
export function failureDetails(output: string): string[] {
  const lines = meaningfulLines(output);
  const summary = runnerSummary(lines);
  if (summary === undefined) {
    const tail = lines.slice(-TAIL_LINES).map((line) => shown(line.replace(COLOUR, "")));
    return tail.length === 0 ? ["(no output)"] : tail;
  }
  const stderr = stderrTail(output);
  const line = shown(summary.replace(/^=+\s*|\s*=+$/gu, ""));
  const shownAlready = stderr.some((row) => row.replace(/\s+/gu, " ").endsWith(line));
  return shownAlready ? stderr : [line, ...stderr];
}

/** A test runner's summary among the lines, as printed: the last failing one, else the last. */
function runnerSummary(lines: readonly string[]): string | undefined {
  const plainLines = lines.map((line) =>
    plain(line.startsWith(STDERR_MARK) ? line.slice(STDERR_MARK.length) : line),
  );
  const summaries = withUnittestResults(withUvuTotals(plainLines)).filter((line) =>
    RUNNER_SUMMARIES.some((pattern) => pattern.test(line)),
  );
  return summaries.findLast((line) => SAYS_FAILED.test(line)) ?? summaries.at(-1);
}

/**
 * unittest prints `Ran 4 tests in 0.001s`, then `OK` or `FAILED (failures=1)` after a blank line:
 * read together, `Ran 4 tests in 0.001s: FAILED (failures=1)`.
 */
function withUnittestResults(lines: readonly string[]): string[] {
  return lines.map((line, index) => {
    const ran = /^Ran \d+ tests? in [\d.]+s$/u.exec(lines[index - 1] ?? "");
    return ran !== null && /^(OK|FAILED)\b/u.test(line) ? `${ran[0]}: ${line}` : line;
  });
}

/** uvu prints `Total: 3` then `Passed: 2` (no failure count): read together, `Passed: 2 of 3`. */
function withUvuTotals(lines: readonly string[]): string[] {
  return lines.map((line, index) => {
    const total = /^Total: (\d+)$/u.exec(lines[index - 1] ?? "");
    return total !== null && /^Passed: \d+$/u.test(line) ? `${line} of ${total[1]}` : line;
  });
}

/**
 * The sandbox's notes as the person sees them, one row each, from the call's facts (never from
 * the output, where a command can print the same words): every control character escaped, a
 * newline in a path included, so that a note stays on its row. Whole, not cut to the summary's
 * width: the note's advice is at its end.
 */
export function sandboxNoteRows(notes: readonly string[]): string[] {
  return notes.map((note) => escapeForTerminal(collapseHiddenRuns(`[sandbox] ${note}`)));
}

/** The last few lines the command wrote to stderr, each escaped, marked as stderr. */
export function stderrTail(output: string): string[] {
  return meaningfulLines(output)
    .filter((line) => line.startsWith(STDERR_MARK))
    .slice(-STDERR_LINES)
    .map((line) => shown(line.replace(COLOUR, "")));
}

/** What the command printed, as the result carries it: after the harness's error line, if any. */
export function commandOutput(content: string, isError: boolean): string {
  return isError ? content.slice(content.indexOf("\n") + 1 || content.length) : content;
}

function meaningfulLines(output: string): string[] {
  return output
    .split(/\r\n|\r|\n/u)
    .filter((line) => line.trim() !== "" && !line.startsWith("[output truncated"));
}

/** A summary line as printed, without colour and with its column padding made one space. */
function plain(line: string): string {
  return line
    .replace(COLOUR, "")
    .trim()
    .replace(/[ \t]+/gu, " ");
}

function shown(line: string): string {
  return escapeForTerminal(truncateForDisplay(collapseHiddenRuns(line.trim()), SUMMARY_CHARS));
}
