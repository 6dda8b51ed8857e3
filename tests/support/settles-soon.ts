/**
 * Whether `promise` settles before the event loop has had a few turns: for a test that must
 * show something is held (a gate, a wait) without sleeping for a fixed time.
 */
export async function settlesSoon(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  return settled;
}
