import type { Readable } from "node:stream";
import { completeUtf8Length, utf8BoundaryAtOrBefore } from "./bounded-output.js";

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
}

/**
 * Reads one pipe for as long as it delivers, forwarding only whole UTF-8 characters so a
 * character split across reads is never interleaved with the other pipe's bytes. With a mark or
 * secrets it forwards whole lines, so each line can be marked and a secret is never cut in two.
 */
export class StreamReader {
  ended = false;
  chunks = 0;
  #pending: Buffer = Buffer.alloc(0);
  #listeners: (() => void)[] = [];
  #atLineStart = true;
  readonly #stream: Readable;
  readonly #output: OutputSink;
  readonly #mark: Buffer | undefined;
  readonly #secrets: readonly Buffer[];
  readonly #byLine: boolean;

  constructor(stream: Readable, output: OutputSink, options: StreamReaderOptions = {}) {
    this.#stream = stream;
    this.#output = output;
    this.#mark = options.mark === undefined ? undefined : Buffer.from(options.mark, "utf8");
    this.#secrets = (options.secrets ?? [])
      .filter((secret) => secret !== "")
      .map((secret) => Buffer.from(secret, "utf8"));
    this.#byLine = this.#mark !== undefined || this.#secrets.length > 0;
    stream.on("data", (chunk: Buffer) => {
      this.chunks += 1;
      this.#accept(chunk);
      this.#notify();
    });
    const markEnded = (): void => {
      this.ended = true;
      this.#notify();
    };
    stream.once("end", markEnded);
    stream.once("close", markEnded);
    // A pipe error (EPIPE, reset) just ends this pipe's contribution.
    stream.on("error", markEnded);
  }

  onActivity(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /** Flush what is left (an incomplete character at the very end decodes as U+FFFD) and stop. */
  finish(): void {
    if (this.#pending.length > 0) this.#emit(this.#pending);
    this.#pending = Buffer.alloc(0);
    this.discard();
  }

  discard(): void {
    this.#listeners = [];
    this.#stream.removeAllListeners("data");
    this.#stream.on("error", () => undefined);
    this.#stream.destroy();
  }

  #accept(chunk: Buffer): void {
    if (this.#output.full === true) return;
    const data = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
    const complete = this.#byLine ? completeLinesLength(data) : completeUtf8Length(data);
    this.#pending = Buffer.from(data.subarray(complete));
    if (complete > 0) this.#emit(data.subarray(0, complete));
  }

  #emit(bytes: Buffer): void {
    const redacted = redactBytes(bytes, this.#secrets);
    if (this.#mark === undefined) {
      this.#output.append(redacted);
      return;
    }
    this.#output.append(markLines(redacted, this.#mark, this.#atLineStart));
    this.#atLineStart = redacted[redacted.length - 1] === 0x0a;
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

/** Up to the last newline; a line longer than the cap is cut there, on a character boundary. */
function completeLinesLength(data: Buffer): number {
  const newline = data.lastIndexOf(0x0a);
  if (newline !== -1) return newline + 1;
  return data.length > MAX_LINE_BYTES ? utf8BoundaryAtOrBefore(data, MAX_LINE_BYTES) : 0;
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

function markLines(bytes: Buffer, mark: Buffer, atLineStart: boolean): Buffer {
  const parts: Buffer[] = [];
  let from = 0;
  let lineStart = atLineStart;
  while (from < bytes.length) {
    if (lineStart) parts.push(mark);
    const newline = bytes.indexOf(0x0a, from);
    const end = newline === -1 ? bytes.length : newline + 1;
    parts.push(bytes.subarray(from, end));
    lineStart = newline !== -1;
    from = end;
  }
  return Buffer.concat(parts);
}
