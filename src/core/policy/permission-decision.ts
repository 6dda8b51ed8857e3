import type { ApprovalRequest } from "./approval-request.js";
import { toolError, type ToolResult } from "../tools/tool-result.js";

/** One frozen tuple is both the runtime list and the type, so they cannot drift apart. */
export const PERMISSION_BEHAVIORS = Object.freeze(["allow", "deny", "ask", "passthrough"] as const);
export type PermissionBehavior = (typeof PERMISSION_BEHAVIORS)[number];

/**
 * How a denial reads to the model: `permission_denied` (chapter 3's), the second seed's
 * `policy_denied` observation for a denial its `authorize` gave, or `action_changed_since_approval`
 * for a call whose approved action changed before it ran (the same code the spawn recheck gives).
 */
export const DENIAL_ERROR_CODES = Object.freeze([
  "permission_denied",
  "policy_denied",
  "action_changed_since_approval",
] as const);
export type DenialErrorCode = (typeof DENIAL_ERROR_CODES)[number];

export class PermissionContractError extends Error {
  override readonly name = "PermissionContractError";
}

export function isPermissionBehavior(value: unknown): value is PermissionBehavior {
  return (PERMISSION_BEHAVIORS as readonly unknown[]).includes(value);
}

/** A decision whose source names no narrower scope covers this one call. */
export const THIS_CALL_ONLY = "this call only";

/** A verdict with its reason and the participant that gave it. Every decision explains itself. */
export class PermissionDecision {
  readonly #brand = true;
  readonly #errorCode: DenialErrorCode;
  readonly behavior: PermissionBehavior;
  readonly reason: string;
  readonly source: string;
  /** P04: the persisted question an `ask` puts to the person (absent before chapter 4). */
  readonly approvalRequest: ApprovalRequest | undefined;
  /**
   * What the decision covers, when its source says (P04: `read of "../x" by read_file`, `every
   * fetch_url call`); the model and the audit hear it with a denial's source and reason.
   */
  readonly scope: string | undefined;

  constructor(
    behavior: PermissionBehavior,
    reason: string,
    source: string,
    approvalRequest?: ApprovalRequest,
    scope?: string,
    errorCode: DenialErrorCode = "permission_denied",
  ) {
    if (!isPermissionBehavior(behavior)) {
      throw new PermissionContractError(`Invalid permission behavior: ${String(behavior)}`);
    }
    if (typeof reason !== "string" || reason.trim() === "") {
      throw new PermissionContractError("A permission decision needs a non-empty reason");
    }
    if (typeof source !== "string" || source.trim() === "") {
      throw new PermissionContractError("A permission decision needs a non-empty source");
    }
    this.behavior = behavior;
    this.reason = reason;
    this.source = source;
    if (approvalRequest !== undefined && behavior !== "ask") {
      throw new PermissionContractError("Only an ask decision carries an approval request");
    }
    this.approvalRequest =
      approvalRequest === undefined
        ? undefined
        : Object.freeze({ ...approvalRequest, risks: Object.freeze([...approvalRequest.risks]) });
    if (scope !== undefined && (typeof scope !== "string" || scope.trim() === "")) {
      throw new PermissionContractError("A decision's scope, when given, is non-empty text");
    }
    this.scope = scope;
    if (!(DENIAL_ERROR_CODES as readonly unknown[]).includes(errorCode)) {
      throw new PermissionContractError(`Invalid denial error code: ${errorCode}`);
    }
    this.#errorCode = errorCode;
    Object.freeze(this);
  }

  /** `scope`: what the allow covers beyond this call, when it does (a run grant, a rule). */
  static allow(reason: string, source: string, scope?: string): PermissionDecision {
    return new PermissionDecision("allow", reason, source, undefined, scope);
  }

  static deny(reason: string, source: string, scope?: string): PermissionDecision {
    return new PermissionDecision("deny", reason, source, undefined, scope);
  }

  /** A call approved for an action it no longer is (p04-recheck.ts words it). */
  static actionChanged(reason: string, source: string, scope: string): PermissionDecision {
    return new PermissionDecision(
      "deny",
      reason,
      source,
      undefined,
      scope,
      "action_changed_since_approval",
    );
  }

  /** The second seed's `observation("policy_denied", reason)`: a denial its policy gave. */
  static policyDenied(reason: string, source: string, scope?: string): PermissionDecision {
    return new PermissionDecision("deny", reason, source, undefined, scope, "policy_denied");
  }

  static ask(
    reason: string,
    source: string,
    approvalRequest?: ApprovalRequest,
  ): PermissionDecision {
    return new PermissionDecision("ask", reason, source, approvalRequest);
  }

  /**
   * True only for instances this class constructed. An approver returning `{ behavior: "allow" }`,
   * `true`, or an object made with `Object.create(PermissionDecision.prototype)` is not a decision.
   */
  static isDecision(value: unknown): value is PermissionDecision {
    return typeof value === "object" && value !== null && #brand in value;
  }

  /** The seed's chapter-3 name for "this decision lets the call run". */
  get isAllowed(): boolean {
    return this.behavior === "allow";
  }

  /** The result the model sees for a denied call. Only a denial has one. */
  toToolResult(): ToolResult {
    if (this.behavior !== "deny") {
      throw new PermissionContractError(
        `only a final deny decision can become a tool result (got ${this.behavior})`,
      );
    }
    return toolError(this.#errorCode, this.reason);
  }
}
