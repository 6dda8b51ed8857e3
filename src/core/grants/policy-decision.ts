/**
 * What the policy answers: the seed's `PolicyDecision` (`allow`, `deny`, `ask`), the same in the
 * harness's words (`P04Decision`), and the stable codes of its denials.
 */
import type { ApprovalRequest } from "../policy/approval-request.js";

export const P04_DENIALS = Object.freeze({
  pathOutsideWorkspace: "path_outside_workspace",
  protectedPath: "protected_path",
  invalidCommandInput: "invalid_command_input",
  invalidInput: "invalid_input",
  argvNotAllowed: "argv_not_allowed",
  networkOrExternal: "network_or_external_effect_not_allowed",
  sandboxUnavailable: "sandbox_unavailable",
  noMatchingPolicy: "no_matching_policy",
  scriptUnreadable: "script_unreadable",
  commandUnbindable: "command_unbindable",
});
export type P04DenialCode = (typeof P04_DENIALS)[keyof typeof P04_DENIALS];

/** The seed's decision, in exactly the seed's shape, so its tests may compare whole objects. */
export type PolicyDecision =
  | { readonly type: "allow"; readonly scope: string }
  | { readonly type: "deny"; readonly reason: P04DenialCode }
  | { readonly type: "ask"; readonly request: ApprovalRequest };

/**
 * The seed's decision as the harness uses it: a denial also says, in words, why (`detail`) and
 * what it covers (`scope`), because the model and the audit hear source, reason and scope of
 * every denial; a question says why a person must answer it (`why`: the prompt's reason).
 */
export type ExplainedDecision =
  | { readonly type: "allow"; readonly scope: string }
  | { readonly type: "ask"; readonly request: ApprovalRequest; readonly why: string }
  | {
      readonly type: "deny";
      readonly reason: P04DenialCode;
      readonly detail: string;
      readonly scope: string;
    };

/** The same decision in the harness's words (`behavior`), kept for the P04 path's callers. */
export type P04Decision =
  | { readonly behavior: "allow"; readonly scope: string }
  | { readonly behavior: "deny"; readonly reason: P04DenialCode; readonly detail: string }
  | { readonly behavior: "ask"; readonly request: ApprovalRequest };

export function deny(reason: P04DenialCode, detail: string, scope: string): ExplainedDecision {
  return { type: "deny", reason, detail, scope };
}
