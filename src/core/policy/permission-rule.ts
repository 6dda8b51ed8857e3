import {
  isPermissionBehavior,
  PermissionContractError,
  PermissionDecision,
  type PermissionBehavior,
} from "./permission-decision.js";
import type { PermissionRequest } from "./permission-request.js";

export interface PermissionRuleSpec {
  readonly name: string;
  readonly behavior: PermissionBehavior;
  readonly reason: string;
  readonly matches: (request: PermissionRequest) => boolean;
}

/** An explicit, named rule. A match yields a decision whose source is the rule's name. */
export class PermissionRule implements PermissionRuleSpec {
  readonly name: string;
  readonly behavior: PermissionBehavior;
  readonly reason: string;
  readonly matches: (request: PermissionRequest) => boolean;

  constructor(spec: PermissionRuleSpec) {
    if (typeof spec.name !== "string" || spec.name.trim() === "") {
      throw new PermissionContractError("A permission rule needs a non-empty name");
    }
    if (!isPermissionBehavior(spec.behavior)) {
      throw new PermissionContractError(
        `Permission rule ${spec.name} has an invalid behavior: ${String(spec.behavior)}`,
      );
    }
    if (typeof spec.reason !== "string" || spec.reason.trim() === "") {
      throw new PermissionContractError(`Permission rule ${spec.name} needs a non-empty reason`);
    }
    if (typeof spec.matches !== "function") {
      throw new PermissionContractError(`Permission rule ${spec.name} needs a matches function`);
    }
    this.name = spec.name;
    this.behavior = spec.behavior;
    this.reason = spec.reason;
    this.matches = spec.matches;
    Object.freeze(this);
  }

  /**
   * The tutorial's chapter-3 name: this rule's decision about the request, or undefined when it
   * does not match. A matcher that throws or answers anything but a boolean denies, named after
   * the rule (an ignored broken rule could silently drop a deny).
   */
  evaluate(request: PermissionRequest): PermissionDecision | undefined {
    return evaluateRule(this, request);
  }
}

/** `PermissionRule.evaluate` for any rule the policy holds; the policy's rules stage uses it. */
export function evaluateRule(
  rule: PermissionRuleSpec,
  request: PermissionRequest,
): PermissionDecision | undefined {
  let matched: unknown;
  try {
    matched = rule.matches(request);
  } catch {
    matched = undefined;
  }
  if (typeof matched !== "boolean") {
    return PermissionDecision.deny(`Permission rule failed: ${rule.name}`, rule.name);
  }
  return matched ? new PermissionDecision(rule.behavior, rule.reason, rule.name) : undefined;
}
