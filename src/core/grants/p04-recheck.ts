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

/** A refusal paired to the call, or undefined when what would run is exactly what was approved. */
export function recheckApprovedCommand(
  callId: string,
  input: Readonly<Record<string, unknown>>,
  approved: ApprovedActions,
  context: P04Context,
): ToolResult | undefined {
  const approvedDigest = approved.take(callId);
  const argv = commandArgv(input);
  if (approvedDigest === undefined || argv === undefined) {
    return toolError(
      RECHECK_ERRORS.notApproved,
      "no approval was recorded for this call, so nothing was run",
    );
  }
  const bound = boundScript(argv, context);
  // What was approved could be bound; what would run now cannot: it changed since the approval.
  if (bound.behavior === "deny") {
    return toolError(
      RECHECK_ERRORS.changed,
      `what this command would run changed after it was approved, and cannot be bound now (${bound.reason}: ${bound.detail}), so nothing was run`,
    );
  }
  if (commandDigest(input, context, bound.script) === approvedDigest) return undefined;
  return toolError(
    RECHECK_ERRORS.changed,
    "what this command would run changed after it was approved (its script, the scripts npm runs around it, the workspace's .npmrc, or where it runs), so nothing was run; call run_command again to ask about what it would run now",
  );
}
