import { RunCancelledError } from "../../core/common/agent-errors.js";
import type { ModelClient, ModelReply, ModelRequest } from "../../core/ports/model.js";

/**
 * How long a request waits for its reply before work that only commands need starts beside it.
 * A hosted model takes hundreds of milliseconds to answer, so the work still overlaps nearly all
 * of that wait; a reply that comes sooner is handled first, without that work on the same thread.
 */
export const IDLE_AFTER_MS = 50;

/**
 * Starts work that only commands need (the sandbox probe) while the model is thinking: once a
 * request has been sent whole and gone `afterMs` without its reply, this thread has nothing else
 * to do. No reply waits for that work (a command waits for the sandbox decision itself, in the
 * tool path), and a reply that comes sooner never shares the thread with it: a one-reply run, or
 * a read, never pays for the probe. The wait counts from the client's `onSent`, not from the
 * call: a resume's first request (its whole history encoded and written) or a loaded machine can
 * take longer than `afterMs` to leave, and the work must never hold the request itself. A client
 * that never says it has sent starts nothing (a command still starts the probe). `start` must be
 * idempotent; it is called at most once, from a timer that never keeps the process alive.
 */
export class WhileModelWaits implements ModelClient {
  readonly #inner: ModelClient;
  #start: (() => void) | undefined;
  readonly #afterMs: number;

  constructor(inner: ModelClient, start: () => void, afterMs: number = IDLE_AFTER_MS) {
    this.#inner = inner;
    this.#start = start;
    this.#afterMs = afterMs;
  }

  async complete(request: ModelRequest): Promise<ModelReply> {
    if (this.#start === undefined) return this.#inner.complete(request);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let settled = false;
    const onSent = (): void => {
      request.onSent?.();
      // A retry sends again: the first attempt's timer already counts.
      if (settled || timer !== undefined) return;
      timer = setTimeout(() => {
        const start = this.#start;
        this.#start = undefined;
        start?.();
      }, this.#afterMs);
      timer.unref();
    };
    // A reply that has begun (a streamed one shows its text as it comes) is not waited on: the
    // work would land between its pieces.
    const onReplyStarted = (): void => {
      request.onReplyStarted?.();
      settled = true;
      clearTimeout(timer);
    };
    try {
      return await this.#inner.complete({ ...request, onSent, onReplyStarted });
    } finally {
      settled = true;
      clearTimeout(timer);
    }
  }
}

/**
 * Runs `later` once this turn of the event loop's callbacks is done, before the loop waits for
 * I/O again: the idle work's second step, so that the probe's spawn goes first. Never unref'd:
 * with only unref'd immediates pending, node lets the loop block until the next I/O, which is
 * the model's reply when the probe makes none (`--sandbox off`), and the work then lands in the
 * first tool call's way, the very gap it is there to keep clear (60–80 ms for the first read).
 */
export function afterThisTurn(later: () => void): void {
  setImmediate(later);
}

/** `promise`, or RunCancelledError as soon as `signal` aborts. */
export function untilAborted(
  promise: Promise<unknown>,
  signal: AbortSignal | undefined,
): Promise<unknown> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(new RunCancelledError());
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      reject(new RunCancelledError());
    };
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => {
      signal.removeEventListener("abort", onAbort);
    });
  });
}
