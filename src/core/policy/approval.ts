import type { PermissionDecision } from "./permission-decision.js";
import type { PermissionRequest } from "./permission-request.js";

/**
 * Resolves an `ask` (the request's `proposedDecision`). Only a genuine `PermissionDecision` with
 * behavior `allow` lets the call run; anything else the policy treats as a denial.
 */
export interface ApprovalProvider {
  decide(request: PermissionRequest): Promise<PermissionDecision>;
}
