/**
 * Who answers an `ask` when stdout is for a script (`--output-format json|stream-json`): nobody.
 * A script's run never waits on a prompt, even with a terminal on stdin, because its stderr may go
 * to /dev/null and the person would answer a question they cannot see. The call is denied as a
 * piped run's is, and the reason, in the result's `decision`, says why.
 */
import type { ApprovalProvider } from "../../../core/policy/approval.js";
import { PermissionDecision } from "../../../core/policy/permission-decision.js";
import { TERMINAL_APPROVAL_SOURCE } from "./terminal-approval.js";

export const SCRIPT_DENIAL_REASON =
  "Interactive approval is unavailable (--output-format json and stream-json never ask)";

export const scriptApproval: ApprovalProvider = {
  decide: () =>
    Promise.resolve(PermissionDecision.deny(SCRIPT_DENIAL_REASON, TERMINAL_APPROVAL_SOURCE)),
};
