/**
 * Which action each call was approved for, between the approval and the invoke: the approver
 * records the digest of the grant it consumed, and the tool takes it back just before it runs,
 * to check that what would run now is still what was approved. Per run, in memory, one use per
 * call: nothing here outlives the call.
 */
export class ApprovedActions {
  readonly #digests = new Map<string, string>();

  record(callId: string, actionDigest: string): void {
    this.#digests.set(callId, actionDigest);
  }

  /** The digest approved for this call, forgotten as it is taken; undefined if none was. */
  take(callId: string): string | undefined {
    const digest = this.#digests.get(callId);
    this.#digests.delete(callId);
    return digest;
  }
}
