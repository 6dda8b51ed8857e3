import type { Readable } from "node:stream";
import { completeUtf8Length, type BoundedOutput } from "./bounded-output.js";

/** Once the root has exited, how long its pipes may stay silent before we stop reading. */
const QUIET_AFTER_EXIT_MS = 100;
/** However much a leftover background process keeps printing, the run ends this soon after exit. */
const MAX_DRAIN_AFTER_EXIT_MS = 2_000;

/**
 * Reads one pipe for as long as it delivers, forwarding only whole UTF-8 characters so a
 * character split across reads is never interleaved with the other pipe's bytes.
 */
export class StreamReader {
  ended = false;
  chunks = 0;
  #pending: Buffer = Buffer.alloc(0);
  #listeners: (() => void)[] = [];
  readonly #stream: Readable;
  readonly #output: BoundedOutput;

  constructor(stream: Readable, output: BoundedOutput) {
    this.#stream = stream;
    this.#output = output;
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
    if (this.#pending.length > 0) this.#output.append(this.#pending);
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
    if (this.#output.full) return;
    const data = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
    const complete = completeUtf8Length(data);
    this.#pending = Buffer.from(data.subarray(complete));
    if (complete > 0) this.#output.append(data.subarray(0, complete));
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
