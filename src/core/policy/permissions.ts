import { RunCancelledError, RunWaitingError } from "../common/agent-errors.js";
import type { ApprovalProvider } from "./approval.js";
import type { AuditSink } from "./audit.js";
import {
  environmentLabel,
  type ExecutionEnvironment,
  type ExecutionEnvironmentStatus,
} from "./execution-environment.js";
import type { WorkspaceWriteBoundary } from "../ports/filesystem.js";
import { PermissionContractError, PermissionDecision } from "./permission-decision.js";
import type { PermissionRequest } from "./permission-request.js";
import { firstLineOfError } from "../common/one-line.js";
import { evaluateRule, type PermissionRule } from "./permission-rule.js";

/** The source of the deny audited for a call its tool's precheck refused (an edit that cannot apply). */
export const PRECHECK_SOURCE = "precheck";

export interface WorkspaceBoundaryCheck {
  readonly workspace: string;
  readonly boundary: WorkspaceWriteBoundary;
  /**
   * Reads meet the boundary too (P04, the seed's `authorizeWorkspacePath`): a read outside is
   * denied here, not only refused by the tool. Chapter 3 leaves reads to the tools.
   */
  readonly reads?: boolean;
}

export interface PermissionPolicyOptions {
  /** The hard write limit. Without it no write is checked against the workspace here. */
  readonly workspaceBoundary?: WorkspaceBoundaryCheck;
  readonly rules?: readonly PermissionRule[];
  /** Who answers an `ask` (the seed's `approval`); absent, every question is denied. */
  readonly approval?: ApprovalProvider;
  readonly audit?: AuditSink;
  /** Where `execute` tools run; an unavailable environment denies every execution. */
  readonly executionEnvironment?: ExecutionEnvironment;
  /**
   * A profile's own policy (P04's default deny), asked right after the boundary: it decides every
   * call, and its `ask` comes before the shell default's so the person sees its request.
   */
  readonly authorizer?: PolicyAuthorizer;
  /**
   * Whether a rule keeps what the call names (a person's deny or ask of the path, for any tool):
   * then nothing looks inside it before the approver is asked. A throw counts as yes.
   */
  readonly keepsContent?: (request: PermissionRequest) => boolean;
}

/** One participant that answers for every call; a throw or a non-decision denies. */
export interface PolicyAuthorizer {
  readonly name: string;
  decide(request: PermissionRequest): PermissionDecision;
}

/** What a dry run (`agent explain`) sees: each stage's verdicts in order, then the merge. */
export interface PolicyTrace {
  stage(name: string, decisions: readonly PermissionDecision[]): void;
  merged(decision: PermissionDecision): void;
}

/** Every option's name, each once (the record's type makes the list complete). */
const POLICY_OPTIONS: ReadonlySet<string> = new Set(
  Object.keys({
    workspaceBoundary: true,
    rules: true,
    approval: true,
    audit: true,
    executionEnvironment: true,
    authorizer: true,
    keepsContent: true,
  } satisfies Record<keyof PermissionPolicyOptions, true>),
);

export const SOURCES = Object.freeze({
  boundary: "workspace-boundary",
  protectedPath: "protected-path",
  shell: "shell-default",
  sandbox: "sandbox",
  approval: "approval",
  default: "default",
});

/** The reasons of the boundary stage's hard denials; the model sees them as `permission_denied`. */
export const BOUNDARY_REASONS = Object.freeze({
  outside: "Writing outside the workspace is forbidden",
  gitMetadata: "Writing git metadata is forbidden: a hook or config there would run on the host",
  harnessFile: "Writing the harness's own files (its audit log, recording or install) is forbidden",
  hostConfig:
    "Writing a file the host loads or runs (shell start-up, git or harness config, a program on PATH) is forbidden",
  readOutside: "Reading outside the workspace is forbidden",
});

/**
 * Decides one prepared call before any side effect, in a fixed order: workspace boundary (and
 * protected paths: git metadata, the harness's own files), execution
 * environment and shell default, recommendations, rules; merge deny > ask > allow > passthrough;
 * resolve `ask` only through the approver; audit the final decision. Anything that throws inside a
 * participant denies; a throwing audit sink rejects the whole decision so the handler never runs.
 */
export class PermissionPolicy {
  readonly #options: PermissionPolicyOptions;

  constructor(options: PermissionPolicyOptions = {}) {
    // A misnamed option (the seed's `writeBoundary`, a stale `approver`) would be left out without
    // a word, and with it a boundary or the person: refused instead.
    const unknown = Object.keys(options).filter((key) => !POLICY_OPTIONS.has(key));
    if (unknown.length > 0) {
      throw new PermissionContractError(
        `PermissionPolicy has no option ${unknown.join(", ")} (its options: ${[...POLICY_OPTIONS].join(", ")})`,
      );
    }
    this.#options = Object.freeze({ ...options, rules: Object.freeze([...(options.rules ?? [])]) });
    Object.freeze(this);
  }

  /**
   * The same policy with nobody to ask: what would need a question is denied ("Approval was not
   * explicitly granted"), still audited. For reads the person asked for in their own message
   * (`@path`), which must not raise a prompt of their own before the model is even asked.
   */
  withoutApprover(): PermissionPolicy {
    const { approval, ...rest } = this.#options;
    return approval === undefined ? this : new PermissionPolicy(rest);
  }

  async decide(request: PermissionRequest, trace?: PolicyTrace): Promise<PermissionDecision> {
    const environment = this.#environmentFor(request);
    // Where a write lands through a link, from the boundary check below: shown and audited.
    let landsOn: string | undefined;
    const withEnvironment =
      environment === undefined
        ? request
        : request.withExecutionEnvironment(environmentLabel(environment));

    // Every `await` is a trip through the microtask queue on every decision, so only what may
    // really be asynchronous is awaited: a read meets no boundary check and no approver, and a
    // synchronous audit sink returns nothing to wait for.
    const stages: [string, PermissionDecision[]][] = [
      [
        "workspace boundary",
        this.#boundaryApplies(request)
          ? await this.#boundaryDecisions(request, (landing) => {
              landsOn = landing;
            })
          : [],
      ],
      ...(this.#options.authorizer === undefined
        ? []
        : [
            [this.#options.authorizer.name, this.#authorizerDecisions(request)] as [
              string,
              PermissionDecision[],
            ],
          ]),
      ["execution environment", executionDecisions(request, environment)],
      ["recommendations", [...request.recommendations]],
    ];
    const ruleDecisions = this.#ruleDecisions(request);
    stages.push(["rules", ruleDecisions]);
    const audited = landsOn === undefined ? withEnvironment : withEnvironment.withLanding(landsOn);
    for (const [name, decisions] of stages) trace?.stage(name, decisions);
    // The same merge; among questions only, a rule's is put first: it says why this very call is
    // asked (your settings file's deny that this command may run), where the environment's
    // default would say only that every command is.
    const merged = strongestDecision([
      ...ruleDecisions.filter((decision) => decision.behavior === "ask"),
      ...stages.flatMap(([, decisions]) => decisions),
    ]);
    trace?.merged(merged);
    // A call that cannot succeed (an edit whose old_string occurs twice) is put to nobody. Finding
    // that out may read the file, so only once nothing denies the call, and not where a rule keeps
    // what it names: the answer would tell the model what the rule keeps.
    if (merged.behavior === "ask" && !this.#keepsContent(request)) {
      try {
        await request.beforeAsking();
      } catch (error) {
        // Refused before anyone is asked, the call still has a final decision: audited as such.
        await this.#options.audit?.record(
          audited,
          PermissionDecision.deny(
            `The call cannot succeed, so nobody is asked: ${firstLineOfError(error)}`,
            PRECHECK_SOURCE,
          ),
        );
        throw error;
      }
    }
    let final: PermissionDecision;
    try {
      final =
        merged.behavior === "ask"
          ? await this.#askApprover(audited.withProposedDecision(merged), merged)
          : resolved(merged);
    } catch (error) {
      // A call that waits for a person is recorded as such before the run stops.
      if (error instanceof RunWaitingError && this.#options.audit !== undefined) {
        await this.#options.audit.record(
          audited,
          new PermissionDecision("ask", error.message, merged.source),
        );
      }
      throw error;
    }
    if (this.#options.audit !== undefined) {
      const recording = this.#options.audit.record(audited, final);
      if (recording !== undefined) await recording;
    }
    return final;
  }

  #keepsContent(request: PermissionRequest): boolean {
    const keeps = this.#options.keepsContent;
    if (keeps === undefined) return false;
    try {
      return keeps(request);
    } catch {
      return true;
    }
  }

  #authorizerDecisions(request: PermissionRequest): PermissionDecision[] {
    const authorizer = this.#options.authorizer;
    if (authorizer === undefined) return [];
    let answer: unknown;
    try {
      answer = authorizer.decide(request);
    } catch {
      answer = undefined;
    }
    return PermissionDecision.isDecision(answer)
      ? [answer]
      : [PermissionDecision.deny(`Permission policy failed: ${authorizer.name}`, authorizer.name)];
  }

  /**
   * Which boundary a final decision came from: the execution environment (sandbox), the product's
   * policy (boundary, protected paths, defaults, rules), or else the person (the approver's answer).
   */
  boundaryOf(decision: PermissionDecision): "execution" | "policy" | "confirmation" {
    if (decision.source === SOURCES.sandbox) return "execution";
    const policySources = [
      SOURCES.boundary,
      SOURCES.protectedPath,
      SOURCES.shell,
      SOURCES.default,
      ...(this.#options.authorizer === undefined ? [] : [this.#options.authorizer.name]),
      ...(this.#options.rules ?? []).map((rule) => rule.name),
    ];
    return policySources.includes(decision.source) ? "policy" : "confirmation";
  }

  #environmentFor(request: PermissionRequest): ExecutionEnvironmentStatus | undefined {
    if (request.call.effect !== "execute" || this.#options.executionEnvironment === undefined) {
      return undefined;
    }
    const unknown: ExecutionEnvironmentStatus = {
      kind: "unavailable",
      reason: "Execution environment could not be determined",
    };
    try {
      const status: unknown = this.#options.executionEnvironment.status();
      return isEnvironmentStatus(status) ? status : unknown;
    } catch {
      return unknown;
    }
  }

  /**
   * Every write meets the workspace boundary (one that names no path is invalid there); in P04 a
   * read that names a path does too (a read without one, glob's pattern, is confined by its tool).
   */
  #boundaryApplies(request: PermissionRequest): boolean {
    const check = this.#options.workspaceBoundary;
    const { effect } = request.call;
    if (check === undefined) return false;
    if (effect === "write") return true;
    return (
      effect === "read" && check.reads === true && Object.hasOwn(request.call.arguments, "path")
    );
  }

  async #boundaryDecisions(
    request: PermissionRequest,
    reportLanding: (landsOn: string) => void,
  ): Promise<PermissionDecision[]> {
    const check = this.#options.workspaceBoundary;
    if (check === undefined) return [];
    const path = request.call.arguments.path;
    if (request.call.effect === "read") return readBoundaryDecisions(check, path, request.toolName);
    if (typeof path !== "string") {
      return [PermissionDecision.deny("Write path is invalid", SOURCES.boundary)];
    }
    try {
      const { boundary, workspace } = check;
      const resolution: unknown =
        boundary.resolveWrite === undefined
          ? { target: await boundary.classifyWrite(workspace, path) }
          : await boundary.resolveWrite(workspace, path);
      const { target, landsOn } = resolution as { target?: unknown; landsOn?: unknown };
      switch (target) {
        case "inside":
          if (typeof landsOn === "string") reportLanding(landsOn);
          return [];
        case "git-metadata":
          return [PermissionDecision.deny(BOUNDARY_REASONS.gitMetadata, SOURCES.protectedPath)];
        case "harness-file":
          return [PermissionDecision.deny(BOUNDARY_REASONS.harnessFile, SOURCES.protectedPath)];
        case "host-config":
          return [PermissionDecision.deny(BOUNDARY_REASONS.hostConfig, SOURCES.protectedPath)];
        default:
          // "outside", or an answer that breaks the contract: either way not a write inside.
          return [PermissionDecision.deny(BOUNDARY_REASONS.outside, SOURCES.boundary)];
      }
    } catch {
      return [PermissionDecision.deny("Write path could not be resolved safely", SOURCES.boundary)];
    }
  }

  #ruleDecisions(request: PermissionRequest): PermissionDecision[] {
    // A matcher that throws or answers anything but a boolean (a Promise, 1, "yes") has broken
    // its contract; ignoring it could silently drop a deny rule, so it denies instead.
    return (this.#options.rules ?? []).flatMap((rule) => evaluateRule(rule, request) ?? []);
  }

  async #askApprover(
    request: PermissionRequest,
    proposed: PermissionDecision,
  ): Promise<PermissionDecision> {
    // Built only when needed: most approvers answer allow or deny.
    const implicitDenial = (): PermissionDecision =>
      PermissionDecision.deny(
        `Approval was not explicitly granted: ${proposed.reason}`,
        SOURCES.approval,
      );
    const approver = this.#options.approval;
    if (approver === undefined) return implicitDenial();
    let answer: unknown;
    try {
      answer = await approver.decide(request);
    } catch (error) {
      // Ctrl-C at the prompt ends the whole run (nothing runs), and so does a request that waits
      // for a person's answer given later; any other failure denies this call.
      if (error instanceof RunCancelledError || error instanceof RunWaitingError) throw error;
      return PermissionDecision.deny("Approval provider failed; request denied", SOURCES.approval);
    }
    if (!PermissionDecision.isDecision(answer)) {
      return PermissionDecision.deny(
        "Approval provider returned an invalid decision",
        SOURCES.approval,
      );
    }
    return answer.behavior === "allow" || answer.behavior === "deny" ? answer : implicitDenial();
  }
}

/** A read outside is denied with what it covers; an unanswerable check denies too. */
async function readBoundaryDecisions(
  check: WorkspaceBoundaryCheck,
  path: unknown,
  toolName: string,
): Promise<PermissionDecision[]> {
  const named = typeof path === "string" ? JSON.stringify(path) : "a path that is not text";
  const scope = `read of ${named} by ${toolName}`;
  let target: unknown;
  try {
    target =
      typeof path === "string"
        ? await check.boundary.classifyRead?.(check.workspace, path)
        : undefined;
  } catch {
    target = undefined;
  }
  if (target === "inside") return [];
  const reason =
    target === "outside" ? BOUNDARY_REASONS.readOutside : "Read path could not be resolved safely";
  return [PermissionDecision.deny(reason, SOURCES.boundary, scope)];
}

function isEnvironmentStatus(value: unknown): value is ExecutionEnvironmentStatus {
  if (typeof value !== "object" || value === null) return false;
  const status = value as Record<string, unknown>;
  switch (status.kind) {
    case "isolated":
    case "host":
      return typeof status.label === "string" && status.label.trim() !== "";
    case "unavailable":
      return typeof status.reason === "string" && status.reason.trim() !== "";
    default:
      return false;
  }
}

function executionDecisions(
  request: PermissionRequest,
  environment: ExecutionEnvironmentStatus | undefined,
): PermissionDecision[] {
  if (request.call.effect !== "execute") return [];
  const decisions = [PermissionDecision.ask("Shell execution requires approval", SOURCES.shell)];
  if (environment?.kind === "unavailable") {
    decisions.unshift(PermissionDecision.deny(environment.reason, SOURCES.sandbox));
  }
  return decisions;
}

/** deny > ask > allow > passthrough; within a behavior the first candidate wins. */
export function strongestDecision(candidates: readonly PermissionDecision[]): PermissionDecision {
  for (const behavior of ["deny", "ask", "allow"] as const) {
    const found = candidates.find((candidate) => candidate.behavior === behavior);
    if (found !== undefined) return found;
  }
  return new PermissionDecision(
    "passthrough",
    "No permission participant made a decision",
    SOURCES.default,
  );
}

/** A merged decision that needs no person: deny and allow stand, passthrough is allowed. */
function resolved(merged: PermissionDecision): PermissionDecision {
  return merged.behavior === "passthrough"
    ? PermissionDecision.allow("No permission rule blocked the request", SOURCES.default)
    : merged;
}
