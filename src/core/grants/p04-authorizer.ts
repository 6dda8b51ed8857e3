/**
 * P04's policy as a participant of the one PermissionPolicy, so its calls take the same fixed path
 * as every other (boundary → rules → merge → approval → audit → invoke).
 */
import { PermissionDecision } from "../policy/permission-decision.js";
import type { PermissionRequest } from "../policy/permission-request.js";
import type { PolicyAuthorizer } from "../policy/permissions.js";
import { authorizeExplained } from "./policy.js";
import type { P04Context } from "./policy-context.js";

export const P04_POLICY_SOURCE = "p04-policy";

export class P04Authorizer implements PolicyAuthorizer {
  readonly name = P04_POLICY_SOURCE;
  /** Read per call: the sandbox decision and the clock may change during a run. */
  readonly #context: () => P04Context;

  constructor(context: () => P04Context) {
    this.#context = context;
    Object.freeze(this);
  }

  decide(request: PermissionRequest): PermissionDecision {
    const { call } = request;
    const decision = authorizeExplained(
      { name: call.toolName, effect: call.effect },
      call.arguments,
      this.#context(),
    );
    switch (decision.type) {
      case "allow":
        return new PermissionDecision(
          "allow",
          `Allowed by P04: ${decision.scope}`,
          P04_POLICY_SOURCE,
          undefined,
          decision.scope,
        );
      case "deny":
        // The seed's `observation("policy_denied", decision.reason)`, our detail after it.
        return PermissionDecision.policyDenied(
          `${decision.reason}: ${decision.detail}`,
          P04_POLICY_SOURCE,
          decision.scope,
        );
      case "ask":
        return PermissionDecision.ask(decision.why, P04_POLICY_SOURCE, decision.request);
    }
  }
}
