/**
 * Reads a run's journal back. A crash can cut only the last line (each record is one write and
 * one flush): such a tail is dropped with a notice. Anything else that does not parse means the
 * file is not a journal the harness can trust, and it is refused with its path, never rewritten.
 */
import type { StoredJournalRecord } from "../../core/journal/journal-records.js";
import {
  JournalReplay,
  JournalReplayError,
  statusSetBy,
  type ReplayedRun,
  type RunStatus,
} from "../../core/journal/journal-replay.js";
import { firstLineOfError } from "../../core/common/one-line.js";
import {
  readHarnessLines,
  truncateHarnessFile,
  useHarnessInput,
  type HarnessInputFile,
  type HarnessLineEnds,
} from "../filesystem/index.js";
import { vouchedJournalLine } from "./journal-line-check.js";
import { journalLineSchema, recordOf, type JournalLine } from "./journal-schema.js";
import { RunJournalError } from "./run-files.js";

/** Journals hold whole conversations; this bounds what one read may take. */
export const MAX_JOURNAL_BYTES = 64 * 1024 * 1024;

/** Where a journal read ended: its first record and what follows the last whole one. */
export interface JournalRead {
  readonly path: string;
  /** The first line: the run's context (start time, workspace, chapter). */
  readonly start: Extract<JournalLine, { type: "run_started" }>;
  /** Bytes of a last line cut mid-record by a crash; 0 when the file ends with a whole record. */
  readonly cutBytes: number;
  /** Length in bytes of the whole records. */
  readonly wholeBytes: number;
}

export interface JournalContents extends JournalRead {
  readonly records: readonly StoredJournalRecord[];
}

/** A journal replayed as it was read (`replayJournalFile`). */
export interface ReplayedJournal extends JournalRead {
  readonly replayed: ReplayedRun;
}

export function readJournalFile(path: string): JournalContents {
  const records: StoredJournalRecord[] = [];
  const read = readJournal(path, (record) => records.push(record));
  return { ...read, records };
}

/**
 * The journal replayed record by record as its lines are read: none of its records is kept, only
 * what the run needs of them (a 999-call run's 5,000 records no longer outlive the read).
 */
export function replayJournalFile(path: string): ReplayedJournal {
  const replay = new JournalReplay();
  const read = readJournal(path, (record) => {
    replay.add(record);
  });
  return { ...read, replayed: replay.result() };
}

/** Each record of the journal at `path`, in order, to `take`; the first must be run_started. */
function readJournal(path: string, take: (record: StoredJournalRecord) => void): JournalRead {
  let start: Extract<JournalLine, { type: "run_started" }> | undefined;
  let lineNumber = 0;
  let ends: HarnessLineEnds;
  try {
    ends = readHarnessLines(path, MAX_JOURNAL_BYTES, (text) => {
      for (const raw of text.split("\n")) {
        lineNumber += 1;
        const line = parseLine(raw, path, lineNumber);
        if (start === undefined) {
          if (line.type !== "run_started") throw notStarted(path);
          start = line;
        }
        try {
          take(recordOf(line));
        } catch (error) {
          if (!(error instanceof JournalReplayError)) throw error;
          throw new RunJournalError(
            `the run journal ${path} cannot be replayed at line ${lineNumber}: ${error.message}; it was left as it is`,
          );
        }
      }
    });
  } catch (error) {
    if (error instanceof RunJournalError) throw error;
    throw new RunJournalError(`cannot read the run journal ${path}: ${firstLineOfError(error)}`);
  }
  if (start === undefined) throw notStarted(path);
  return { path, start, cutBytes: ends.cutBytes, wholeBytes: ends.wholeBytes };
}

function notStarted(path: string): RunJournalError {
  return new RunJournalError(
    `the run journal ${path} does not begin with a run_started record; it was left as it is`,
  );
}

function parseLine(raw: string, path: string, lineNumber: number): JournalLine {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw notAJournal(path, lineNumber, "it is not JSON");
  }
  // The records the harness writes pass without zod; anything else gets zod's verdict and words.
  const vouched = vouchedJournalLine(value);
  if (vouched !== undefined) return vouched;
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
export function dropCutTail(contents: JournalRead): void {
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

/**
 * Journals up to this size are read whole to be listed; a longer one only at its ends. Whole,
 * every record is checked; at its ends, a fault in the middle shows only when the run is resumed.
 */
export const LISTED_WHOLE_BYTES = 256 * 1024;
const CHUNK_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

export interface JournalEnds {
  /** The first record: the run's context and its first prompt. */
  readonly start: Extract<JournalLine, { type: "run_started" }>;
  /** The run's status, as replaying every record would leave it. */
  readonly status: RunStatus;
}

/**
 * What `agent runs` and `agent resume` look for in a journal over LISTED_WHOLE_BYTES, read from
 * its two ends: the first record, and from the end back to the last record that sets the status
 * (a crash's cut tail skipped, as a whole read skips it). `undefined` for a shorter journal, or
 * when anything read does not parse: the caller then reads it whole, for the exact refusal.
 */
export function readJournalEnds(path: string): JournalEnds | undefined {
  try {
    return useHarnessInput(path, MAX_JOURNAL_BYTES, (file) =>
      file.size <= LISTED_WHOLE_BYTES ? undefined : endsOf(file, path),
    );
  } catch {
    return undefined;
  }
}

/**
 * When the run started, to the millisecond, from its first record alone; undefined when that
 * cannot be read. Two runs started in the same second have ids of that second: this orders them.
 */
export function readJournalStartTime(path: string): number | undefined {
  try {
    const time = useHarnessInput(path, MAX_JOURNAL_BYTES, (file) => firstRecord(file, path))?.start
      .time;
    const parsed = time === undefined ? Number.NaN : Date.parse(time);
    return Number.isNaN(parsed) ? undefined : parsed;
  } catch {
    return undefined;
  }
}

/** The run_started record and where the line after it begins; undefined for anything else. */
function firstRecord(
  file: HarnessInputFile,
  path: string,
): { start: JournalEnds["start"]; bodyStart: number } | undefined {
  // The first line, however long (it carries the system prompt).
  let head = Buffer.alloc(0);
  let firstEnd = -1;
  while (firstEnd < 0 && head.length < file.size) {
    const chunk = file.read(head.length, CHUNK_BYTES);
    if (chunk.length === 0) return undefined;
    firstEnd = chunk.indexOf(NEWLINE);
    if (firstEnd >= 0) firstEnd += head.length;
    head = Buffer.concat([head, chunk]);
  }
  if (firstEnd < 0) return undefined;
  const start = parseLine(head.subarray(0, firstEnd).toString("utf8"), path, 1);
  return start.type === "run_started" ? { start, bodyStart: firstEnd + 1 } : undefined;
}

function endsOf(file: HarnessInputFile, path: string): JournalEnds | undefined {
  const first = firstRecord(file, path);
  if (first === undefined) return undefined;
  const { start, bodyStart } = first;
  // The end of the last whole record: bytes after the last newline are a cut tail.
  let position = file.size;
  let wholeEnd = -1;
  while (wholeEnd < 0 && position > bodyStart) {
    const from = Math.max(bodyStart, position - CHUNK_BYTES);
    const at = file.read(from, position - from).lastIndexOf(NEWLINE);
    if (at >= 0) wholeEnd = from + at + 1;
    position = from;
  }
  if (wholeEnd < 0) return { start, status: "unfinished" };
  // Back from there, line by line, to the last record that says what became of the run.
  position = wholeEnd;
  let pending = Buffer.alloc(0);
  while (position > bodyStart) {
    const from = Math.max(bodyStart, position - CHUNK_BYTES);
    const bytes = Buffer.concat([file.read(from, position - from), pending]);
    position = from;
    // Before the first newline is the end of a line that began further back (unless this is
    // the first record after the head).
    const cut = from === bodyStart ? 0 : bytes.indexOf(NEWLINE) + 1;
    if (from !== bodyStart && cut === 0) {
      pending = bytes;
      continue;
    }
    pending = bytes.subarray(0, cut);
    const lines = bytes.subarray(cut).toString("utf8").split("\n").slice(0, -1);
    for (const raw of lines.reverse()) {
      const status = statusSetBy(recordOf(parseLine(raw, path, 0)));
      if (status !== undefined) return { start, status };
    }
  }
  return { start, status: "unfinished" };
}
