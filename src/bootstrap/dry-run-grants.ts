import type { ApprovalGrants } from "../core/grants/grant-approval.js";

/**
 * The grant store of a dry run: it holds only what the dry run itself grants, in memory, so
 * `agent explain` consumes and saves nothing real.
 */
export class DryRunGrants implements ApprovalGrants {
  readonly #granted = new Map<string, string>();
  readonly #digests = new Map<string, string>();

  saveApprovalRequest(
    _runId: string,
    request: { readonly id: string; readonly actionDigest: string },
  ): void {
    this.#digests.set(request.id, request.actionDigest);
  }

  approve(requestId: string): void {
    const digest = this.#digests.get(requestId);
    if (digest !== undefined) this.#granted.set(digest, requestId);
  }

  deny(): void {
    // A dry run records no denial: nothing will be retried.
  }

  consumeApprovalGrant(_runId: string, actionDigest: string): { requestId: string } | undefined {
    const requestId = this.#granted.get(actionDigest);
    this.#granted.delete(actionDigest);
    return requestId === undefined ? undefined : { requestId };
  }

  consumeDenial(): undefined {
    return undefined;
  }

  waitingRequest(): undefined {
    // A dry run resumes nothing: no request of it waits from before.
    return undefined;
  }

  grantForCall(): undefined {
    // A dry run resumes nothing: no call of it was approved before.
    return undefined;
  }
}
