import { RunCancelledError } from "../core/runner/agent-errors.js";
import type { ModelClient, ModelReply, ModelRequest } from "../core/ports/model.js";

/**
 * Lets start-up work that only tool calls need (the sandbox probe) run while the first model
 * request is in flight: the first reply is handed on only once `ready` has settled, so no tool
 * call is decided before it. Later requests pass straight through.
 */
export class FirstReplyGate implements ModelClient {
  readonly #inner: ModelClient;
  #ready: Promise<unknown> | undefined;

  constructor(inner: ModelClient, ready: Promise<unknown>) {
    this.#inner = inner;
    this.#ready = ready;
  }

  async complete(request: ModelRequest): Promise<ModelReply> {
    const ready = this.#ready;
    if (ready === undefined) return this.#inner.complete(request);
    const [reply] = await Promise.all([
      this.#inner.complete(request),
      untilAborted(ready, request.signal),
    ]);
    this.#ready = undefined;
    return reply;
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
