/**
 * A signal for one request that aborts when the run's signal does, and lets go of the run's
 * signal afterwards. The SDK adds an abort listener to the signal it is given and never removes
 * it (openai-node#1811): given the run's signal, every request of a long run would leave one
 * behind, and from the eleventh Node prints a MaxListenersExceededWarning.
 */
export interface LinkedAbort {
  readonly signal: AbortSignal;
  /** Stops following the run's signal; call it when the request is done, however it ended. */
  unlink(): void;
}

export function linkAbort(parent: AbortSignal): LinkedAbort {
  const controller = new AbortController();
  const onAbort = (): void => {
    controller.abort(parent.reason);
  };
  if (parent.aborted) onAbort();
  else parent.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    unlink: () => {
      parent.removeEventListener("abort", onAbort);
    },
  };
}
