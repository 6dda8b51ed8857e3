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
  readonly #beforeAsking: (() => Promise<void>) | undefined;

  constructor(
    call: PreparedToolCall,
    options: PermissionRequestOptions = {},
    context: {
      readonly proposedDecision?: PermissionDecision;
      readonly executionEnvironment?: string;
      readonly landsOn?: string;
      /** Told when an approver puts this call's question to a person. */
      readonly onAsking?: () => void;
      /** Run by the policy before it hands a question to the approver (see `beforeAsking`). */
      readonly beforeAsking?: () => Promise<void>;
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
    this.#beforeAsking = context.beforeAsking;
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

  /**
   * The policy calls this once it would put the call to the approver, after every deny has had its
   * say: the runner's check that the call can succeed at all (the tool's precheck, which may read
   * the file the call names), throwing `CallCannotSucceedError` when it cannot. Run there, not
   * before the policy, so a call the policy denies learns nothing from it.
   */
  async beforeAsking(): Promise<void> {
    await this.#beforeAsking?.();
  }

  withExecutionEnvironment(label: string): PermissionRequest {
    return new PermissionRequest(
      this.call,
      { recommendations: this.recommendations },
      { executionEnvironment: label, ...this.#landing(), ...this.#hooks() },
    );
  }

  withLanding(landsOn: string): PermissionRequest {
    return new PermissionRequest(
      this.call,
      { recommendations: this.recommendations },
      { executionEnvironment: this.executionEnvironment, landsOn, ...this.#hooks() },
    );
  }

  #landing(): { readonly landsOn?: string } {
    return this.landsOn === undefined ? {} : { landsOn: this.landsOn };
  }

  #hooks(): { readonly onAsking?: () => void; readonly beforeAsking?: () => Promise<void> } {
    return {
      ...(this.#onAsking === undefined ? {} : { onAsking: this.#onAsking }),
      ...(this.#beforeAsking === undefined ? {} : { beforeAsking: this.#beforeAsking }),
    };
  }

  withProposedDecision(decision: PermissionDecision): PermissionRequest {
    return new PermissionRequest(
      this.call,
      { recommendations: this.recommendations },
      {
        proposedDecision: decision,
        executionEnvironment: this.executionEnvironment,
        ...this.#landing(),
        ...this.#hooks(),
      },
    );
  }
}
