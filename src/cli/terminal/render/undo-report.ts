/**
 * What `/undo` and `agent undo` print: one `agent: ` line per call they looked at, newest first,
 * and a line when the run had fewer calls to take back than asked for. File names come from the
 * model, so every line is escaped, and on a terminal broken into rows whose wrapped ones are
 * indented: none of them starts at column 0, where it could pass for a harness line.
 */
import { undoLine, type UndoReport } from "../../../bootstrap.js";
import { agentLine } from "./agent-line.js";
import { writeHarnessLines, type HarnessOutput } from "./harness-rows.js";

export function undoReportLines(report: UndoReport): string[] {
  const { decisions, changes, asked } = report;
  if (decisions.length === 0) {
    return [
      agentLine(
        "nothing to undo in this run: no call in it changed anything, or each that did is undone already",
      ),
    ];
  }
  const lines = decisions.map((decision) => agentLine(undoLine(decision)));
  if (changes < asked) {
    lines.push(
      agentLine(
        `only ${String(changes)} call${changes === 1 ? "" : "s"} that changed files to undo in this run (asked for ${String(asked)})`,
      ),
    );
  }
  return lines;
}

/** `undoReportLines` written to `output`, as rows on a terminal (harness-rows.ts). */
export function writeUndoReport(output: HarnessOutput, report: UndoReport): void {
  writeHarnessLines(
    output,
    undoReportLines(report).map((line) => line.replace(/\n$/u, "")),
  );
}
