/**
 * P04's approver: an `ask` is answered by a grant recorded for exactly that action, or waits for
 * one (with nobody at a terminal, or when the terminal cannot ask: RunWaitingError). At a terminal the person's `y` is recorded as a grant and then consumed like any other, so
 * a grant given now and one given later (`agent approve`) take one code path.
 */
import { RunWaitingError } from "../common/agent-errors.js";
import type { ApprovalProvider } from "../policy/approval.js";
import type { ApprovalRequest } from "../policy/approval-request.js";
import type { ApprovedActions } from "./approved-actions.js";
import { actionChangedMessage } from "./p04-recheck.js";
import { PermissionDecision } from "../policy/permission-decision.js";
import type { PermissionRequest } from "../policy/permission-request.js";

/** The grant store's side that a run uses (adapters/state's ApprovalStore). */
export interface ApprovalGrants {
  /** The seed's `store.saveApprovalRequest(runId, request)`, with the call that asked. */
  saveApprovalRequest(runId: string, request: ApprovalRequest, call: RequestingCall): void;
  approve(requestId: string, ttlMs: number, by: string): unknown;
  deny(requestId: string, by: string): unknown;
  consumeApprovalGrant(
    runId: string,
    actionDigest: string,
  ): { readonly requestId: string } | undefined;
  consumeDenial(runId: string, actionDigest: string): { readonly requestId: string } | undefined;
  /** This run's newest request for this call that still waits for an answer, whatever action. */
  waitingRequest(runId: string, callId: string): ApprovalRequest | undefined;
  /** The unused grant given to this run's request for this call, whatever action it names. */
  grantForCall(
    runId: string,
    callId: string,
  ): { readonly requestId: string; readonly actionDigest: string } | undefined;
}

/** The call a saved request answers for: `agent approvals` shows it. */
export interface RequestingCall {
  readonly callId: string;
  readonly tool: string;
}

export const GRANT_SOURCE = "approval-grant";

export interface GrantApprovalOptions {
  readonly grants: ApprovalGrants;
  readonly runId: string;
  /** The person at a terminal; absent when nobody is there (the run then waits). */
  readonly interactive?: ApprovalProvider;
  /** How long a `y` at the terminal counts; it is consumed at once anyway. */
  readonly grantTtlMs: number;
  /** Told the digest of each grant consumed, so the tool can check it again just before it runs. */
  readonly approved?: ApprovedActions;
}

export class GrantApprovalProvider implements ApprovalProvider {
  readonly #options: GrantApprovalOptions;

  constructor(options: GrantApprovalOptions) {
    this.#options = options;
  }

  async decide(request: PermissionRequest): Promise<PermissionDecision> {
    const ask = request.proposedDecision?.approvalRequest;
    if (ask === undefined) {
      return PermissionDecision.deny("No approval request to answer", GRANT_SOURCE);
    }
    const { grants, runId } = this.#options;
    const denial = grants.consumeDenial(runId, ask.actionDigest);
    if (denial !== undefined) {
      return PermissionDecision.deny(
        `approval_denied: the person denied request ${denial.requestId}`,
        GRANT_SOURCE,
        `this exact action (request ${denial.requestId})`,
      );
    }
    const granted = this.#consume(ask, request.call.callId);
    if (granted !== undefined) return granted;
    // This very call was approved, for an action it no longer is: what it would run changed
    // after the person's answer (a script, a file it runs, npm's configuration). Not asked again
    // as if new: the model is told, and a new call asks about what it would run now.
    const approvedBefore = grants.grantForCall(runId, request.call.callId);
    if (approvedBefore !== undefined && approvedBefore.actionDigest !== ask.actionDigest) {
      return PermissionDecision.actionChanged(
        actionChangedMessage(approvedBefore.requestId),
        GRANT_SOURCE,
        `this call (request ${approvedBefore.requestId})`,
      );
    }
    const call = { callId: request.call.callId, tool: request.toolName };
    const interactive = this.#options.interactive;
    if (interactive === undefined) {
      // Resumed before the person answered: the same action waits on under the id they have;
      // another one (what the call runs changed) gets its own, and says which it replaces.
      const earlier = grants.waitingRequest(runId, call.callId);
      const same = earlier?.actionDigest === ask.actionDigest ? earlier : undefined;
      if (same === undefined) grants.saveApprovalRequest(runId, ask, call);
      const waiting = same ?? ask;
      const replaces =
        earlier !== undefined && same === undefined
          ? `; it replaces request ${earlier.id}, since what the call would run changed`
          : "";
      throw new RunWaitingError(
        request.call.callId,
        { ...waiting, risks: [...waiting.risks] },
        `Waiting for approval: request ${waiting.id} (agent approve ${waiting.id}, or agent deny ${waiting.id})${replaces}`,
        earlier !== undefined && same === undefined ? earlier.id : undefined,
      );
    }
    let answer: PermissionDecision;
    try {
      answer = await interactive.decide(request);
    } catch (error) {
      // The terminal did not ask (a request too long to show whole): the request waits, saved,
      // as it would with nobody there, so `agent approvals` shows it and `agent approve` answers.
      if (error instanceof RunWaitingError) grants.saveApprovalRequest(runId, ask, call);
      throw error;
    }
    if (!PermissionDecision.isDecision(answer) || answer.behavior !== "allow") return answer;
    // The `y` becomes a grant like any other, and this call consumes it.
    grants.saveApprovalRequest(runId, ask, call);
    grants.approve(ask.id, this.#options.grantTtlMs, "terminal");
    return (
      this.#consume(ask, request.call.callId) ??
      PermissionDecision.deny("The grant just given could not be consumed", GRANT_SOURCE)
    );
  }

  #consume(ask: ApprovalRequest, callId: string): PermissionDecision | undefined {
    const grant = this.#options.grants.consumeApprovalGrant(this.#options.runId, ask.actionDigest);
    if (grant === undefined) return undefined;
    this.#options.approved?.record(callId, {
      actionDigest: ask.actionDigest,
      requestId: grant.requestId,
    });
    return new PermissionDecision(
      "allow",
      `Approved: grant for request ${grant.requestId} consumed (one-time)`,
      GRANT_SOURCE,
      undefined,
      `this exact action (request ${grant.requestId}), once`,
    );
  }
}
