/**
 * The journal port as an append-only JSONL file, one per run. Each record is one line, written to
 * a descriptor opened once (never through a link, a regular file with one name, owner-only) and
 * flushed with fdatasync before `append` resolves, so it is on disk before the step it describes.
 * Two exceptions, both for steps that change nothing outside the harness: a run's run_started is
 * flushed while the first model request is in flight, and an `effectFree` record (a model reply,
 * a local read's records) resolves once written, to be flushed with its group: by the next record
 * that is not effect-free, by `close`, or within GROUP_FLUSH_MS. Flushes follow one another, and a
 * record that is not effect-free waits for every flush before it and then for its own (which
 * covers everything written before it), so nothing that has an effect happens before every
 * earlier record is on disk, name and all (docs/run-journal.md, "Group flushes").
 *
 * Why a JSONL file and not a database: it is what terminal agents already keep (Codex and Claude
 * Code write JSONL transcripts), it needs no native module (SQLite bindings need a compiler or a
 * prebuilt binary on Windows), an append is one write, and a crash can only cut the last line,
 * which the reader detects and drops with a notice.
 */
import { createHash } from "node:crypto";
import { close, closeSync, fstatSync, fsync, open } from "node:fs";
import { promisify } from "node:util";
import { dirname } from "node:path";
import type {
  AppendOptions,
  JournalRecord,
  KeptImage,
  RunJournal,
} from "../../core/journal/journal-records.js";
import { JOURNAL_VERSION } from "../../core/journal/journal-records.js";
import { firstLineOfError } from "../../core/common/one-line.js";
import { appendWritten, flushHarnessFile, openHarnessOutput } from "../filesystem/index.js";
import { MAX_JOURNAL_BYTES } from "./journal-file.js";
import { RunJournalError } from "./run-files.js";
import { ImageFile, imagesPath } from "./image-file.js";

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
  /**
   * `--command-timeout` in ms, as the run was started: `agent resume` keeps it too, so a resumed
   * run's commands run under the limit its earlier ones did. Absent only where the journal is reopened, not started (undo).
   */
  readonly commandTimeoutMs?: number;
  /** The SHA-256 of the project instructions (AGENTS.md) in the system prompt, when any. */
  readonly instructionsDigest?: string;
}

export class FileRunJournal implements RunJournal {
  readonly path: string;
  readonly #context: RunContext;
  readonly #now: () => Date;
  #fd: number | undefined;
  /** Bytes in the file: it never grows past what `readJournalFile` will read back. */
  #size: number;
  /** The flush of the directory that names the new file: the first record waits for it too. */
  readonly #named: Promise<void>;
  readonly #flush: (fd: number) => Promise<void>;
  /** Records' own flushes in flight (not effect-free ones): `close` waits for them too. */
  readonly #ownFlushes = new Set<Promise<unknown>>();
  /**
   * The last flush started or queued (each starts once the one before has settled), or the one
   * that failed: a record that is not effect-free awaits it before it is written (and fails if it
   * failed), and the descriptor is closed only once it has settled.
   */
  #flushing: Promise<void> | undefined;
  /** A flush is queued behind the one in flight and has not started: it covers what is written meanwhile. */
  #queued = false;
  /** Set once a flush failed: no record is written after it. */
  #failed: { readonly error: unknown } | undefined;
  /** Bytes were written after the last flush started. */
  #unflushed = false;
  /** The flush that effect-free records wait for at most GROUP_FLUSH_MS, unless a later step's comes first. */
  #groupFlush: ReturnType<typeof setTimeout> | undefined;
  /**
   * Records made before the run's run_started (a `/model` switch before the first message): a
   * journal must begin with run_started or no reader accepts it, so they wait and follow it. A
   * run that never starts leaves them unwritten, as it leaves no journal.
   */
  readonly #beforeStart: JournalRecord[] = [];
  /** The before-images of the run's writes, beside the journal (image-file.ts). */
  readonly #images: ImageFile;

  private constructor(
    path: string,
    fd: number,
    context: RunContext,
    now: () => Date,
    named: Promise<void>,
    flush: (fd: number) => Promise<void>,
  ) {
    this.path = path;
    this.#fd = fd;
    this.#named = named;
    this.#flush = flush;
    this.#size = fstatSync(fd).size;
    this.#context = context;
    this.#now = now;
    this.#images = new ImageFile(imagesPath(path));
  }

  /**
   * Opens (creating it owner-only) the run's journal for appending. `flush` makes run_started and
   * the effect-free records written so far durable (fdatasync; tests hold it to see what waits for
   * it); any other record is flushed with its own fdatasync before its append resolves.
   */
  static open(
    path: string,
    context: RunContext,
    now: () => Date = () => new Date(),
    flush: (fd: number) => Promise<void> = flushHarnessFile,
  ): FileRunJournal {
    let fd: number;
    try {
      fd = openHarnessOutput(path, { truncate: false }).fd;
    } catch (error) {
      throw new RunJournalError(`Cannot open the run journal ${path}: ${firstLineOfError(error)}`);
    }
    // Flushed beside the run's start-up work, not before it; every append awaits it (already
    // settled after the first), so the name is on disk before the first step all the same.
    return new FileRunJournal(path, fd, context, now, syncDirectoryOf(path), flush);
  }

  async append(record: JournalRecord, options: AppendOptions = {}): Promise<void> {
    if (this.#fd === undefined) {
      throw new RunJournalError(`The run journal ${this.path} is closed`);
    }
    if (this.#size === 0 && record.type !== "run_started") {
      this.#beforeStart.push(record);
      return;
    }
    await this.#write(record, options.effectFree === true);
    if (record.type !== "run_started") return;
    for (const held of this.#beforeStart.splice(0)) await this.#write(held, false);
  }

  async #write(record: JournalRecord, effectFree: boolean): Promise<void> {
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
    const text = `${JSON.stringify(line)}\n`;
    const bytes = Buffer.byteLength(text, "utf8");
    // A journal resume cannot read is no journal: a record that would push the file past the
    // reader's limit is refused, so its step does not happen. Small records (a run's closing one)
    // may use the last CLOSING_RESERVE bytes, so a run stopped this way still says why.
    const limit =
      bytes <= CLOSING_RESERVE ? MAX_JOURNAL_BYTES : MAX_JOURNAL_BYTES - CLOSING_RESERVE;
    if (this.#size + bytes > limit) {
      throw new RunJournalError(
        `The run journal ${this.path} would grow past ${String(MAX_JOURNAL_BYTES)} bytes with this ${record.type} record (${String(bytes)} bytes), more than resume reads; the step did not happen`,
      );
    }
    if (this.#failed !== undefined) throw this.#failed.error;
    if (effectFree || record.type === "run_started") {
      // Its step changes nothing outside the harness: written now (a process that dies keeps
      // it), and on disk before any step with an effect, or the journal's close, or within
      // GROUP_FLUSH_MS, whichever comes first. run_started's flush starts at once, while the
      // first request is in flight, to have the run's name on disk early.
      await appendWritten(fd, text);
      this.#size += bytes;
      this.#unflushed = true;
      if (record.type === "run_started") void this.#flushAfterWrites(fd).catch(ignore);
      else this.#flushWithin(fd);
      return;
    }
    // A failed flush rejects here: no step with an effect happens on an unflushed journal.
    await this.#flushing;
    // Closed while this record waited for it: the descriptor may name another file by now.
    if (this.#fd !== fd) throw new RunJournalError(`The run journal ${this.path} is closed`);
    await appendWritten(fd, text);
    this.#size += bytes;
    // Its own fdatasync covers this record and every effect-free one written before it. A
    // failure fails every later record too (and `close` does not flush again past it).
    this.#unflushed = false;
    const own = Promise.all([flushHarnessFile(fd), this.#named]);
    this.#ownFlushes.add(own);
    try {
      await own;
    } catch (error) {
      this.#failed ??= { error };
      throw error;
    } finally {
      this.#ownFlushes.delete(own);
    }
    // A flush the timer started beside this one may be the fsync the kernel told of a
    // write-back error (Linux tells one fsync of the file only): its outcome is this record's.
    await this.#flushing;
    this.#throwIfFailed();
  }

  /**
   * Flushes what has been written so far: at once when no flush is in flight, else once it has
   * settled. Only one waits at a time, since it covers everything written before it starts.
   */
  #flushAfterWrites(fd: number): Promise<void> {
    const last = this.#flushing;
    if (this.#queued && last !== undefined) return last;
    this.#queued = true;
    const flushed = (last ?? Promise.resolve()).then(() => {
      this.#queued = false;
      this.#unflushed = false;
      return this.#flush(fd);
    });
    this.#flushing = flushed;
    flushed.then(
      () => {
        if (this.#flushing === flushed) this.#flushing = undefined;
      },
      (error: unknown) => {
        this.#failed ??= { error };
      },
    );
    return flushed;
  }

  /**
   * Effect-free records are flushed together: by the next record that is not effect-free, by
   * `close`, or at the latest GROUP_FLUSH_MS after the first of them. A flush in the background
   * holds up the writes that meet it (the kernel makes them wait), so it is not started per record.
   */
  #flushWithin(fd: number): void {
    if (this.#groupFlush !== undefined) return;
    this.#groupFlush = setTimeout(() => {
      this.#groupFlush = undefined;
      if (this.#fd === fd && this.#unflushed) void this.#flushAfterWrites(fd).catch(ignore);
    }, GROUP_FLUSH_MS);
    // The journal's close flushes what is left, so the timer need not keep the process alive.
    this.#groupFlush.unref();
  }

  /** Durable before it resolves: the write's file_before, and then the write, wait for it. */
  keepImage(bytes: Uint8Array): Promise<KeptImage | { readonly notKept: string }> {
    if (this.#fd === undefined) {
      return Promise.reject(new RunJournalError(`The run journal ${this.path} is closed`));
    }
    return this.#images.keep(bytes);
  }

  spaceLeft(): number {
    return Math.max(0, MAX_JOURNAL_BYTES - CLOSING_RESERVE - this.#size);
  }

  /** A method, not an inline check: TypeScript would take `#failed` as still unset after an await. */
  #throwIfFailed(): void {
    if (this.#failed !== undefined) throw this.#failed.error;
  }

  close(): void {
    const fd = this.#fd;
    if (fd === undefined) return;
    this.#fd = undefined;
    this.#images.close();
    if (this.#groupFlush !== undefined) clearTimeout(this.#groupFlush);
    this.#groupFlush = undefined;
    // Effect-free records not yet flushed are flushed now; the process waits for it to end.
    const flushing =
      this.#unflushed && this.#failed === undefined ? this.#flushAfterWrites(fd) : this.#flushing;
    const pending = [...this.#ownFlushes, ...(flushing === undefined ? [] : [flushing])];
    if (pending.length === 0) {
      closeSync(fd);
      return;
    }
    // Never under a flush still in flight: its descriptor number could name another file by then.
    void Promise.allSettled(pending).then(() => {
      closeSync(fd);
    });
  }
}

const CLOSING_RESERVE = 64 * 1024;
/** The longest an effect-free record waits for its flush when nothing else flushes it first. */
export const GROUP_FLUSH_MS = 1000;

function ignore(): void {
  // A failed flush is reported by the next append, or stops the close from claiming anything.
}

// node:fs's own callbacks, not fs/promises, which the bundle loads at the first tool call instead
// of before the first request (scripts/bundle.js, LAZY_BUILTINS).
const openFile = promisify(open);
const syncFile = promisify(fsync);
const closeFile = promisify(close);

/**
 * A new file's name is durable only once its directory is flushed too (POSIX; not on Windows).
 * Never rejects: best effort, the first record's own fdatasync still reaches the disk on common
 * filesystems.
 */
async function syncDirectoryOf(path: string): Promise<void> {
  if (process.platform === "win32") return;
  try {
    const directory = await openFile(dirname(path), "r");
    try {
      await syncFile(directory);
    } finally {
      await closeFile(directory);
    }
  } catch {
    // Best effort, as above.
  }
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}
