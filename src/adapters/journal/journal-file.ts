/**
 * Reads a run's journal back. A crash can cut only the last line (each record is one write and
 * one flush): such a tail is dropped with a notice. Anything else that does not parse means the
 * file is not a journal the harness can trust, and it is refused with its path, never rewritten.
 */
import type { StoredJournalRecord } from "../../core/journal/journal-records.js";
import { firstLineOfError } from "../../core/common/one-line.js";
import { readHarnessInput, truncateHarnessFile } from "../filesystem/index.js";
import { journalLineSchema, recordOf, type JournalLine } from "./journal-schema.js";
import { RunJournalError } from "./run-files.js";

/** Journals hold whole conversations; this bounds what one read may take. */
export const MAX_JOURNAL_BYTES = 64 * 1024 * 1024;

export interface JournalContents {
  readonly path: string;
  readonly records: readonly StoredJournalRecord[];
  /** The first line: the run's context (start time, workspace, chapter). */
  readonly start: Extract<JournalLine, { type: "run_started" }>;
  /** Bytes of a last line cut mid-record by a crash; 0 when the file ends with a whole record. */
  readonly cutBytes: number;
  /** Length in bytes of the whole records. */
  readonly wholeBytes: number;
}

export function readJournalFile(path: string): JournalContents {
  let text: string;
  try {
    text = readHarnessInput(path, MAX_JOURNAL_BYTES);
  } catch (error) {
    throw new RunJournalError(`cannot read the run journal ${path}: ${firstLineOfError(error)}`);
  }
  const end = text.lastIndexOf("\n") + 1;
  const whole = text.slice(0, end);
  const tail = text.slice(end);
  const lines: JournalLine[] = [];
  for (const [index, raw] of whole.split("\n").slice(0, -1).entries()) {
    lines.push(parseLine(raw, path, index + 1));
  }
  const start = lines[0];
  if (start?.type !== "run_started") {
    throw new RunJournalError(
      `the run journal ${path} does not begin with a run_started record; it was left as it is`,
    );
  }
  return {
    path,
    records: lines.map(recordOf),
    start,
    cutBytes: Buffer.byteLength(tail, "utf8"),
    wholeBytes: Buffer.byteLength(whole, "utf8"),
  };
}

function parseLine(raw: string, path: string, lineNumber: number): JournalLine {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw notAJournal(path, lineNumber, "it is not JSON");
  }
  const parsed = journalLineSchema().safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where =
      issue === undefined ? "" : ` (${issue.path.join(".") || "record"}: ${issue.message})`;
    throw notAJournal(path, lineNumber, `it is not a journal record of version 1${where}`);
  }
  return parsed.data;
}

function notAJournal(path: string, lineNumber: number, why: string): RunJournalError {
  return new RunJournalError(
    `the run journal ${path} cannot be read at line ${lineNumber}: ${why}; it was left as it is`,
  );
}

/**
 * Drops a tail cut by a crash, so the next record starts on a line of its own. Only bytes past the
 * last whole record go, and only if the file is still the size it was read at.
 */
export function dropCutTail(contents: JournalContents): void {
  if (contents.cutBytes === 0) return;
  let cut: boolean;
  try {
    cut = truncateHarnessFile(
      contents.path,
      contents.wholeBytes + contents.cutBytes,
      contents.wholeBytes,
    );
  } catch (error) {
    throw new RunJournalError(
      `cannot drop the cut tail of the run journal ${contents.path}: ${firstLineOfError(error)}`,
    );
  }
  if (!cut) throw new RunJournalError(`the run journal ${contents.path} changed while it was read`);
}
