/**
 * The journal port as an append-only JSONL file, one per run. Each record is one line, written to
 * a descriptor opened once (never through a link, a regular file with one name, owner-only) and
 * flushed with fdatasync before `append` resolves, so it is on disk before the step it describes.
 *
 * Why a JSONL file and not a database: it is what terminal agents already keep (Codex and Claude
 * Code write JSONL transcripts), it needs no native module (SQLite bindings need a compiler or a
 * prebuilt binary on Windows), an append is one write, and a crash can only cut the last line,
 * which the reader detects and drops with a notice.
 */
import { createHash } from "node:crypto";
import { closeSync, constants, fsyncSync, openSync } from "node:fs";
import { dirname } from "node:path";
import type { JournalRecord, RunJournal } from "../../core/journal-records.js";
import { JOURNAL_VERSION } from "../../core/journal-records.js";
import { firstLineOfError } from "../../core/one-line.js";
import { appendDurably, openHarnessOutput } from "../filesystem/index.js";
import { RunJournalError } from "./run-files.js";

/** Written into run_started: what the run was, for people and for `agent resume`. */
export interface RunContext {
  readonly runId: string;
  readonly chapter: number;
  readonly profile: string;
  readonly model: string;
  readonly workspace: string;
  /** One line: who decides what (e.g. `shell asks; file writes ask; sandbox auto`). */
  readonly policy: string;
  /**
   * `--sandbox` and `--network` as the run was started: `agent resume` keeps them, since a P04
   * grant is bound to where the command runs and a chapter-3 run must not go on less confined.
   */
  readonly sandbox: string;
  readonly network: boolean;
}

export class FileRunJournal implements RunJournal {
  readonly path: string;
  readonly #context: RunContext;
  readonly #now: () => Date;
  #fd: number | undefined;

  private constructor(path: string, fd: number, context: RunContext, now: () => Date) {
    this.path = path;
    this.#fd = fd;
    this.#context = context;
    this.#now = now;
  }

  /** Opens (creating it owner-only) the run's journal for appending. */
  static open(
    path: string,
    context: RunContext,
    now: () => Date = () => new Date(),
  ): FileRunJournal {
    let fd: number;
    try {
      fd = openHarnessOutput(path, { truncate: false }).fd;
    } catch (error) {
      throw new RunJournalError(`Cannot open the run journal ${path}: ${firstLineOfError(error)}`);
    }
    syncDirectoryOf(path);
    return new FileRunJournal(path, fd, context, now);
  }

  async append(record: JournalRecord): Promise<void> {
    const fd = this.#fd;
    if (fd === undefined) throw new RunJournalError(`The run journal ${this.path} is closed`);
    const line = {
      v: JOURNAL_VERSION,
      time: this.#now().toISOString(),
      ...record,
      ...(record.type === "run_started" ? this.#context : {}),
      ...(record.type === "call_prepared"
        ? { argumentsSha256: sha256(record.canonicalArguments) }
        : {}),
    };
    await appendDurably(fd, `${JSON.stringify(line)}\n`);
  }

  close(): void {
    if (this.#fd === undefined) return;
    closeSync(this.#fd);
    this.#fd = undefined;
  }
}

/** A new file's name is durable only once its directory is flushed too (POSIX; not on Windows). */
function syncDirectoryOf(path: string): void {
  if (process.platform === "win32") return;
  const directory = dirname(path);
  let fd: number | undefined;
  try {
    fd = openSync(directory, constants.O_RDONLY);
    fsyncSync(fd);
  } catch {
    // Best effort: the first record's own fdatasync still reaches the disk on common filesystems.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}
