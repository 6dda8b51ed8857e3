/**
 * Which action each call was approved for, between the approval and the invoke: the approver
 * records the digest of the grant it consumed (and the request it answered), and the tool takes
 * it back just before it runs, to check that what would run now is still what was approved. Per
 * run, in memory, one use per call: nothing here outlives the call.
 */
export interface ApprovedAction {
  readonly actionDigest: string;
  /** The request whose grant was consumed: the refusal names it when the action changed. */
  readonly requestId: string;
}

export class ApprovedActions {
  readonly #approved = new Map<string, ApprovedAction>();

  record(callId: string, action: ApprovedAction): void {
    this.#approved.set(callId, action);
  }

  /** What was approved for this call, forgotten as it is taken; undefined if nothing was. */
  take(callId: string): ApprovedAction | undefined {
    const action = this.#approved.get(callId);
    this.#approved.delete(callId);
    return action;
  }
}
