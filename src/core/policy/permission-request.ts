import { PermissionContractError, PermissionDecision } from "./permission-decision.js";
import { PreparedToolCall } from "../tools/prepared-tool-call.js";

export interface PermissionRequestOptions {
  /** Structured advice from future hooks; it joins the merge and can never loosen a deny. */
  readonly recommendations?: readonly PermissionDecision[];
}

/** What the policy decides about: one validated call, plus what it learns along the way. */
export class PermissionRequest {
  readonly call: PreparedToolCall;
  readonly recommendations: readonly PermissionDecision[];
  /** The `ask` decision an approver is asked to resolve; set only on the approver's copy. */
  readonly proposedDecision: PermissionDecision | undefined;
  /** Where an `execute` call would run, e.g. `sandbox: none — runs on the host`. */
  readonly executionEnvironment: string | undefined;
  /**
   * The file a write lands on when a link leads its path elsewhere (workspace-relative), as the
   * boundary check that decided resolved it: the prompt and the audit name it.
   */
  readonly landsOn: string | undefined;
  readonly #onAsking: (() => void) | undefined;

  constructor(
    call: PreparedToolCall,
    options: PermissionRequestOptions = {},
    context: {
      readonly proposedDecision?: PermissionDecision;
      readonly executionEnvironment?: string;
      readonly landsOn?: string;
      /** Told when an approver puts this call's question to a person. */
      readonly onAsking?: () => void;
    } = {},
  ) {
    if (!PreparedToolCall.isPrepared(call)) {
      throw new PermissionContractError(
        "permission request requires a valid prepared tool call (one the tool registry prepared)",
      );
    }
    const recommendations = options.recommendations ?? [];
    if (!recommendations.every((item) => PermissionDecision.isDecision(item))) {
      throw new PermissionContractError("Recommendations must be PermissionDecision instances");
    }
    this.call = call;
    this.recommendations = Object.freeze([...recommendations]);
    this.proposedDecision = context.proposedDecision;
    this.executionEnvironment = context.executionEnvironment;
    this.landsOn = context.landsOn;
    this.#onAsking = context.onAsking;
    Object.freeze(this);
  }

  get toolName(): string {
    return this.call.toolName;
  }

  /**
   * An approver calls this as it puts the question to a person (a prompt shown); one that answers
   * without asking anyone (a piped run, a script's run, a grant) does not. The runner keeps the
   * time of a call that asked apart as `waitedMs`, and only for such a call.
   */
  askingPerson(): void {
    this.#onAsking?.();
  }

  withExecutionEnvironment(label: string): PermissionRequest {
    return new PermissionRequest(
      this.call,
      { recommendations: this.recommendations },
      { executionEnvironment: label, ...this.#landing(), ...this.#asking() },
    );
  }

  withLanding(landsOn: string): PermissionRequest {
    return new PermissionRequest(
      this.call,
      { recommendations: this.recommendations },
      { executionEnvironment: this.executionEnvironment, landsOn, ...this.#asking() },
    );
  }

  #landing(): { readonly landsOn?: string } {
    return this.landsOn === undefined ? {} : { landsOn: this.landsOn };
  }

  #asking(): { readonly onAsking?: () => void } {
    return this.#onAsking === undefined ? {} : { onAsking: this.#onAsking };
  }

  withProposedDecision(decision: PermissionDecision): PermissionRequest {
    return new PermissionRequest(
      this.call,
      { recommendations: this.recommendations },
      {
        proposedDecision: decision,
        executionEnvironment: this.executionEnvironment,
        ...this.#landing(),
        ...this.#asking(),
      },
    );
  }
}
