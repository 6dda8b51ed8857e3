/**
 * The error a promise rejects with, or `undefined` when it resolves: for tests that compare the
 * whole error (its class and its exact message) rather than only that something threw.
 */
export async function runError(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return undefined;
}
