/**
 * Which of a workspace's requests is the live one for its call. A run waits on one call at a
 * time, and a resume that waits again (other arguments, an expired grant) saves a new request for
 * the same run and call: the newest one replaces the others, which are then neither listed nor
 * answerable.
 */
interface RequestOfCall {
  readonly runId: string;
  readonly callId: string;
  readonly createdAt: string;
  readonly request: { readonly id: string };
}

export function callKey(stored: RequestOfCall): string {
  return JSON.stringify([stored.runId, stored.callId]);
}

/** The newest request per run and call, keyed by `callKey`. */
export function newestPerCall<T extends RequestOfCall>(requests: readonly T[]): Map<string, T> {
  const newest = new Map<string, T>();
  for (const stored of requests) {
    const known = newest.get(callKey(stored));
    // ISO times of one format compare as strings. The same millisecond (not seen in practice):
    // the larger id, so that every reader picks the same one.
    const later =
      known === undefined ||
      stored.createdAt > known.createdAt ||
      (stored.createdAt === known.createdAt && stored.request.id > known.request.id);
    if (later) newest.set(callKey(stored), stored);
  }
  return newest;
}
