import type { Readable } from "node:stream";
import { completeUtf8Length, utf8BoundaryAtOrBefore } from "./bounded-output.js";
import { copyPrefix } from "./copy-prefix.js";
import { readPipe, READ_BUFFER_BYTES, type PipeSource } from "./pipe-source.js";

/** Once the root has exited, how long its pipes may stay silent before we stop reading. */
const QUIET_AFTER_EXIT_MS = 100;
/** However much a leftover background process keeps printing, the run ends this soon after exit. */
const MAX_DRAIN_AFTER_EXIT_MS = 2_000;

/** A line longer than this is passed on in pieces (a secret cut across two may then slip). */
const MAX_LINE_BYTES = 64 * 1024;

/** Where a reader's bytes go: the captured output, or the status pipe's bounded buffer. */
export interface OutputSink {
  append(bytes: Buffer): void;
  /** True once the sink keeps nothing more: the reader then drops bytes unread. */
  readonly full?: boolean;
}

export interface StreamReaderOptions {
  /** Put in front of every line this pipe gives, e.g. `[stderr] `. */
  readonly mark?: string;
  /** Values replaced by `[redacted]`, line by line, before the sink sees them. */
  readonly secrets?: readonly string[];
  /** Sees every read as it arrives (`bytes[0, length)`, valid only during the call), before the sink. */
  readonly onRead?: (bytes: Buffer, length: number) => void;
}

/**
 * Reads one pipe for as long as it delivers, forwarding only whole UTF-8 characters so a
 * character split across reads is never interleaved with the other pipe's bytes. With a mark or
 * secrets it forwards whole lines, so each line can be marked and a secret is never cut in two.
 * Every read lands in a reused buffer and what waits for the rest of its line in a fixed one, so
 * reading a gigabyte leaves no garbage behind; the sink copies what it keeps.
 */
export class StreamReader {
  ended = false;
  chunks = 0;
  /** The start of a line (or character) still waiting for its end; never above the line cap. */
  readonly #pending = Buffer.allocUnsafe(MAX_LINE_BYTES + READ_BUFFER_BYTES);
  /** What a line longer than the cap is passed on in, most often: made once, not per read. */
  readonly #pendingHead = this.#pending.subarray(0, MAX_LINE_BYTES);
  #pendingLength = 0;
  #listeners: (() => void)[] = [];
  #atLineStart = true;
  #marked: Buffer = Buffer.alloc(0);
  readonly #pipe: PipeSource;
  readonly #output: OutputSink;
  readonly #mark: Buffer | undefined;
  readonly #secrets: readonly Buffer[];
  readonly #byLine: boolean;

  constructor(stream: Readable, output: OutputSink, options: StreamReaderOptions = {}) {
    this.#output = output;
    this.#mark = options.mark === undefined ? undefined : Buffer.from(options.mark, "utf8");
    this.#secrets = (options.secrets ?? [])
      .filter((secret) => secret !== "")
      .map((secret) => Buffer.from(secret, "utf8"));
    this.#byLine = this.#mark !== undefined || this.#secrets.length > 0;
    const onRead = options.onRead;
    this.#pipe = readPipe(stream, {
      onBytes: (bytes, length) => {
        this.chunks += 1;
        onRead?.(bytes, length);
        this.#accept(bytes, length);
        this.#notify();
      },
      onEnd: () => {
        this.ended = true;
        this.#notify();
      },
    });
  }

  onActivity(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /** Flush what is left (an incomplete character at the very end decodes as U+FFFD) and stop. */
  finish(): void {
    if (this.#pendingLength > 0) this.#emit(this.#part(this.#pending, 0, this.#pendingLength));
    this.#pendingLength = 0;
    this.discard();
  }

  discard(): void {
    this.#listeners = [];
    this.#pipe.stop();
  }

  /** Takes `bytes[0, length)`. */
  #accept(bytes: Buffer, length: number): void {
    if (length <= READ_BUFFER_BYTES) {
      if (this.#output.full !== true) this.#acceptPiece(bytes, length);
      return;
    }
    // Pieces no larger than one read, so the pending buffer always has room for one.
    for (let from = 0; from < length; from += READ_BUFFER_BYTES) {
      if (this.#output.full === true) return;
      const piece = bytes.subarray(from, Math.min(length, from + READ_BUFFER_BYTES));
      this.#acceptPiece(piece, piece.length);
    }
  }

  /**
   * Takes `piece[0, length)` and works on `data[0, end)`: the read itself, or the pending buffer
   * once the read has joined what waits there. Positions rather than views: a view is an object
   * per read, and a gigabyte of them grew V8's young generation.
   */
  #acceptPiece(piece: Buffer, length: number): void {
    const joined = this.#pendingLength > 0;
    if (joined) copyPrefix(this.#pending, this.#pendingLength, piece, length);
    const data = joined ? this.#pending : piece;
    const end = joined ? this.#pendingLength + length : length;
    let complete = this.#byLine ? completeLinesLength(data, end) : completeUtf8Length(data, end);
    if (complete > 0) this.#emit(this.#part(data, 0, complete));
    // A line longer than the cap goes on in pieces, so what waits stays within the cap.
    while (end - complete > MAX_LINE_BYTES) {
      const cut = utf8BoundaryAtOrBefore(data, complete + MAX_LINE_BYTES, end);
      this.#emit(this.#part(data, complete, cut));
      complete = cut;
    }
    // The sink has copied what it keeps: the rest moves to the front of the pending buffer.
    if (joined) this.#pending.copyWithin(0, complete, end);
    else if (complete === 0) copyPrefix(this.#pending, 0, piece, end);
    else if (complete < end) this.#pending.set(piece.subarray(complete, end), 0);
    this.#pendingLength = end - complete;
  }

  /** `data[start, end)`, reusing the whole or the pending buffer's first line cap (a long line's piece). */
  #part(data: Buffer, start: number, end: number): Buffer {
    if (start === 0 && end === data.length) return data;
    if (data === this.#pending && start === 0 && end === MAX_LINE_BYTES) return this.#pendingHead;
    return data.subarray(start, end);
  }

  #emit(bytes: Buffer): void {
    const redacted = redactBytes(bytes, this.#secrets);
    if (this.#mark === undefined) {
      this.#output.append(redacted);
      return;
    }
    this.#output.append(this.#markLines(redacted, this.#mark));
    this.#atLineStart = redacted[redacted.length - 1] === 0x0a;
  }

  /** The bytes with the mark in front of each line, in a buffer reused from call to call. */
  #markLines(bytes: Buffer, mark: Buffer): Buffer {
    let lines = this.#atLineStart ? 1 : 0;
    for (let index = bytes.indexOf(0x0a); index !== -1; index = bytes.indexOf(0x0a, index + 1)) {
      if (index + 1 < bytes.length) lines += 1;
    }
    const size = bytes.length + lines * mark.length;
    if (this.#marked.length < size)
      this.#marked = Buffer.allocUnsafe(Math.max(size, 2 * this.#marked.length));
    let length = 0;
    let from = 0;
    let lineStart = this.#atLineStart;
    while (from < bytes.length) {
      if (lineStart) length += mark.copy(this.#marked, length);
      const newline = bytes.indexOf(0x0a, from);
      const end = newline === -1 ? bytes.length : newline + 1;
      length += bytes.copy(this.#marked, length, from, end);
      lineStart = newline !== -1;
      from = end;
    }
    return this.#marked.subarray(0, length);
  }

  #notify(): void {
    for (const listener of this.#listeners) listener();
  }
}

/** Resolves once both pipes have ended, or they stayed quiet a moment, or the drain cap passed. */
export function drainAfterExit(streams: readonly StreamReader[]): Promise<void> {
  return new Promise((done) => {
    const startedAt = Date.now();
    let lastActivity = startedAt;
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      clearInterval(poll);
      done();
    };
    const check = (): void => {
      const now = Date.now();
      if (streams.every((stream) => stream.ended) || now - startedAt >= MAX_DRAIN_AFTER_EXIT_MS) {
        finish();
        return;
      }
      if (now - lastActivity < QUIET_AFTER_EXIT_MS) return;
      // Data already in the pipes is read in the loop's poll phase, which runs before
      // setImmediate callbacks: look once more after it so a busy loop cannot lose output.
      const seen = totalChunks(streams);
      setImmediate(() => {
        if (totalChunks(streams) === seen) finish();
        else lastActivity = Date.now();
      });
    };
    for (const stream of streams) {
      stream.onActivity(() => {
        lastActivity = Date.now();
        if (streams.every((each) => each.ended)) finish();
      });
    }
    const poll = setInterval(check, QUIET_AFTER_EXIT_MS / 4);
    check();
  });
}

function totalChunks(streams: readonly StreamReader[]): number {
  return streams.reduce((sum, stream) => sum + stream.chunks, 0);
}

/**
 * Of `data[0, end)`, up to the last newline; a line longer than the cap is cut there, on a
 * character boundary.
 */
function completeLinesLength(data: Buffer, end: number): number {
  const newline = end === 0 ? -1 : data.lastIndexOf(0x0a, end - 1);
  if (newline !== -1) return newline + 1;
  return end > MAX_LINE_BYTES ? utf8BoundaryAtOrBefore(data, MAX_LINE_BYTES, end) : 0;
}

const REDACTED = Buffer.from("[redacted]", "utf8");

function redactBytes(bytes: Buffer, secrets: readonly Buffer[]): Buffer {
  let result = bytes;
  for (const secret of secrets) {
    let index = result.indexOf(secret);
    if (index === -1) continue;
    const parts: Buffer[] = [];
    let from = 0;
    while (index !== -1) {
      parts.push(result.subarray(from, index), REDACTED);
      from = index + secret.length;
      index = result.indexOf(secret, from);
    }
    parts.push(result.subarray(from));
    result = Buffer.concat(parts);
  }
  return result;
}
