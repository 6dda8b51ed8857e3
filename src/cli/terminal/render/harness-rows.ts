/**
 * The harness's own plain lines (`agent: …`, `[Permission] …`, a listing) written where a person
 * may read them: on a terminal each is broken into rows between words here, its wrapped rows
 * indented like model text, so no row the terminal would have wrapped to column 0 (and that may
 * hold the model's words) passes for a harness line. Anywhere else each line is written as it is,
 * byte for byte, for the scripts and logs that read it.
 */
import { layOutHarnessLine, plain } from "./styled-rows.js";
import { cellsOfText, usableCells } from "./terminal-cells.js";

/** A stream the harness writes its lines to; a tty.WriteStream tells its width. */
export interface HarnessOutput {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/**
 * `line` (escaped already, no line break in it) as the rows `output` should show, without a final
 * line break: one row unless `output` is a terminal of known width.
 */
export function harnessRows(output: HarnessOutput, line: string, rest?: string): string {
  const width = output.isTTY === true ? output.columns : undefined;
  // Such a line may fill its row to the last column (model text stops one short): its line break
  // follows at once, and the usual audit line is 80 characters, one row on an 80-column terminal.
  const columns = width === undefined || width <= 0 ? undefined : width + 1;
  // A hang that would leave less than half a row for the text is given up for the usual indent.
  const hang =
    rest !== undefined && cellsOfText(rest) * 2 <= usableCells(columns) ? rest : undefined;
  return layOutHarnessLine([plain(line)], { columns, color: false }, hang);
}

/**
 * Writes each line (escaped already) as its rows, each line ended by a line break. `hang`: what
 * starts a line's wrapped rows, when not MODEL_INDENT.
 */
export function writeHarnessLines(
  output: HarnessOutput,
  lines: readonly string[],
  hang: (line: string) => string | undefined = () => undefined,
): void {
  output.write(lines.map((line) => `${harnessRows(output, line, hang(line))}\n`).join(""));
}
