/**
 * The last check before an approved command runs. An approval is given for what the request
 * showed, but the person may answer minutes later, and the script, its hooks or the workspace's
 * `.npmrc` may change in between (a grant waits up to its TTL too). So the digest is computed
 * again from what would run now, just before the spawn, and must equal the one whose grant was
 * consumed for this call; else nothing runs, and the model is told to call again, which asks
 * again about what would run now (or waits, when nobody is there to ask).
 */
import type { ApprovedActions } from "./approved-actions.js";
import { boundScript, commandDigest } from "./command-binding.js";
import type { P04Context } from "./policy-context.js";
import { commandArgv } from "./run-command-input.js";
import { toolError, type ToolResult } from "../tools/tool-result.js";

export const RECHECK_ERRORS = Object.freeze({
  notApproved: "command_not_approved",
  changed: "action_changed_since_approval",
});

/**
 * The one refusal of a call whose approved action changed before it ran, caught either when a
 * resumed run consumes the grant (grant-approval.ts) or at the spawn recheck below: the same code
 * and words, so the model and tests read one contract.
 */
export function actionChangedMessage(requestId: string): string {
  return `request ${requestId} approved this call, but the action it is now differs from the one approved (a script or file it runs, npm's configuration, where it runs, or where a path lands changed since), so nothing was run; call the tool again to ask about the action as it is now`;
}

/** A refusal paired to the call, or undefined when what would run is exactly what was approved. */
export function recheckApprovedCommand(
  callId: string,
  input: Readonly<Record<string, unknown>>,
  approved: ApprovedActions,
  context: P04Context,
): ToolResult | undefined {
  const approvedAction = approved.take(callId);
  const argv = commandArgv(input);
  if (approvedAction === undefined || argv === undefined) {
    return toolError(
      RECHECK_ERRORS.notApproved,
      "no approval was recorded for this call, so nothing was run",
    );
  }
  const bound = boundScript(argv, context);
  // What was approved could be bound; what would run now cannot (the next call is refused with
  // the reason), or differs: either way it changed since the approval.
  if (
    bound.behavior !== "deny" &&
    commandDigest(input, context, bound.script) === approvedAction.actionDigest
  ) {
    return undefined;
  }
  return toolError(RECHECK_ERRORS.changed, actionChangedMessage(approvedAction.requestId));
}
