import { RunCancelledError } from "../../core/common/agent-errors.js";
import type { ModelClient, ModelReply, ModelRequest } from "../../core/ports/model.js";

/**
 * Starts work that only commands need (the sandbox probe) once the first model request is on its
 * way, so it runs while the model thinks; no reply waits for it (a command waits for the sandbox
 * decision itself, in the tool path). `onFirstRequest` runs once, on the event loop's next turn
 * after the first request was handed to the model client: the SDK builds the request over
 * several microtasks and hands it to node:http without waiting on any I/O, so by then the
 * request is on its way, and what the probe does on this thread (loading fs/promises, its temp
 * directory, the spawn) comes after it rather than before. A failure there fails the request's
 * caller.
 */
export class FirstRequestHook implements ModelClient {
  readonly #inner: ModelClient;
  #onFirstRequest: (() => void) | undefined;

  constructor(inner: ModelClient, onFirstRequest: () => void) {
    this.#inner = inner;
    this.#onFirstRequest = onFirstRequest;
  }

  async complete(request: ModelRequest): Promise<ModelReply> {
    const onFirstRequest = this.#onFirstRequest;
    if (onFirstRequest === undefined) return this.#inner.complete(request);
    this.#onFirstRequest = undefined;
    const reply = this.#inner.complete(request);
    const started = new Promise<void>((resolve) => setImmediate(resolve)).then(onFirstRequest);
    const [answer] = await Promise.all([reply, started]);
    return answer;
  }
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
