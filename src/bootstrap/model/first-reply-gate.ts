import { RunCancelledError } from "../../core/common/agent-errors.js";
import type { ModelClient, ModelReply, ModelRequest } from "../../core/ports/model.js";

/**
 * Lets start-up work that only tool calls need (the sandbox probe) run while the first model
 * request is in flight: the first reply is handed on only once `ready` has settled, so no tool
 * call is decided before it. Later requests pass straight through. `onFirstRequest` runs once,
 * on the event loop's next turn after the first request was handed to the model client: the SDK
 * builds the request over several microtasks and hands it to node:http without waiting on any
 * I/O, so by then the request is on its way, and what the probe does on this thread (loading
 * fs/promises, its temp directory, the spawn) comes after it rather than before. A failure there
 * fails the request's caller, as before.
 */
export class FirstReplyGate implements ModelClient {
  readonly #inner: ModelClient;
  #ready: Promise<unknown> | undefined;
  readonly #onFirstRequest: () => void;

  constructor(
    inner: ModelClient,
    ready: Promise<unknown>,
    onFirstRequest: () => void = () => undefined,
  ) {
    this.#inner = inner;
    this.#ready = ready;
    this.#onFirstRequest = onFirstRequest;
  }

  async complete(request: ModelRequest): Promise<ModelReply> {
    const ready = this.#ready;
    if (ready === undefined) return this.#inner.complete(request);
    const reply = this.#inner.complete(request);
    const started = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      this.#onFirstRequest();
    });
    const [answer] = await Promise.all([reply, untilAborted(ready, request.signal), started]);
    this.#ready = undefined;
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
