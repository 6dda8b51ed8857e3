/**
 * "Yes to exactly this, for this run": the `a` of `[y/N/a]`. A grant is keyed by everything that
 * makes an action what it is: the tool, its canonical arguments, the workspace it runs in, where it
 * runs (the environment's label names the sandbox and its network), and, for a command whose
 * script the harness binds (an npm script, an interpreter's file), that script's content now.
 * Anything different asks again. Grants live in memory, so none outlives the run; each is listed
 * and can be revoked. `agent resume` of the same run holds again those its journal recorded and
 * did not revoke, each by the key it was granted under (`restored`).
 */
import { canonicalJson } from "../common/canonical-json.js";
import { firstLineOfError } from "../common/one-line.js";
import type { ApprovalProvider } from "./approval.js";
import type { ExecutionEnvironment } from "./execution-environment.js";
import { PermissionDecision } from "./permission-decision.js";
import type { PermissionRequest } from "./permission-request.js";
import type { PersonalRules } from "./personal-rules.js";

export const RUN_GRANT_SOURCE = "run-grant";

/** The scope of an `a` answer and of each call its grant allows (the audit log's `scope`). */
export const FOR_THE_REST_OF_THE_RUN = "this exact action, for the rest of this run";

function grantScope(grant: RunGrant): string {
  return `${FOR_THE_REST_OF_THE_RUN} (grant ${String(grant.id)})`;
}

/** The person's answer at a `[y/N/a]` prompt. */
export interface RunApprovalAnswer {
  readonly decision: PermissionDecision;
  /** `a`: allow this exact action again, for the rest of this run. */
  readonly forRun: boolean;
}

/** A prompt that can also be answered "for this run". */
export interface RunApprovalPrompt {
  /**
   * `note`: a line said above the question, why this call is asked where the person may think it
   * was not to be: an `a` of this run held it until what it is bound to changed, or an allow rule
   * of theirs matches its path but does not cover a file the host loads later.
   */
  decideForRun(request: PermissionRequest, note?: string): Promise<RunApprovalAnswer>;
  /**
   * The same question without `a` (`[y/N]`), for an action no grant could keep; `whyNotForRun`
   * says why, to the person.
   */
  decideOnce(request: PermissionRequest, whyNotForRun: string): Promise<PermissionDecision>;
}

export interface RunGrant {
  readonly id: number;
  readonly toolName: string;
  /** The arguments as the person saw them (canonical JSON). */
  readonly arguments: string;
  readonly environment: string | undefined;
  readonly key: string;
}

/**
 * Told of each grant before it is made or taken back (the journal): a grant the observer could
 * not record is not made (the throw reaches the policy, which denies the call).
 */
export interface RunGrantObserver {
  granted?(grant: RunGrant): void | Promise<void>;
  revoked?(grant: RunGrant): void | Promise<void>;
}

export interface RunGrantsOptions {
  readonly workspace: string;
  /** What a command binds, read now (an npm script's text, an interpreter's file); else none. */
  readonly boundScript?: (request: PermissionRequest) => string | undefined;
  readonly observer?: RunGrantObserver;
  /** Grants this run made before it was resumed (its journal's): held again, not told again. */
  readonly restored?: readonly RunGrant[];
  /** The highest grant number given before the resume, revoked ones too: the next is above it. */
  readonly issued?: number;
}

export class RunGrants {
  readonly #options: RunGrantsOptions;
  readonly #grants = new Map<string, RunGrant>();
  #nextId = 1;

  constructor(options: RunGrantsOptions) {
    this.#options = options;
    this.#nextId = (options.issued ?? 0) + 1;
    for (const grant of options.restored ?? []) {
      this.#grants.set(grant.key, Object.freeze({ ...grant }));
      this.#nextId = Math.max(this.#nextId, grant.id + 1);
    }
  }

  /** What makes this action this action; a throw (unhashable arguments) means no key, no grant. */
  keyOf(request: PermissionRequest): string | undefined {
    const keyed = this.keyOrWhyNot(request);
    return "key" in keyed ? keyed.key : undefined;
  }

  /** The action's key, or why it has none (what the command runs cannot be bound, say). */
  keyOrWhyNot(request: PermissionRequest): { key: string } | { whyNot: string } {
    try {
      return {
        key: canonicalJson({
          tool: request.toolName,
          arguments: request.call.arguments,
          workspace: this.#options.workspace,
          environment: request.executionEnvironment ?? null,
          // Where a write lands through a link: a link swapped in later is another action.
          landsOn: request.landsOn ?? null,
          script: this.#options.boundScript?.(request) ?? null,
        }),
      };
    } catch (error) {
      return {
        whyNot: `what the command runs cannot be bound to a grant (${firstLineOfError(error)})`,
      };
    }
  }

  covers(request: PermissionRequest): boolean {
    const key = this.keyOf(request);
    return key !== undefined && this.holds(key);
  }

  /** Whether a grant of this run holds the action of that key. */
  holds(key: string): boolean {
    return this.#grants.has(key);
  }

  /** The grant that holds the action of that key, if one does. */
  heldBy(key: string): RunGrant | undefined {
    return this.#grants.get(key);
  }

  /**
   * Keeps exactly this action for the rest of the run. `key`: the one the person was asked under
   * (keyOrWhyNot), so what the command runs is read once per question, and the grant is for what
   * was there when they were asked.
   */
  async grant(
    request: PermissionRequest,
    key: string | undefined = this.keyOf(request),
  ): Promise<RunGrant | undefined> {
    if (key === undefined) return undefined;
    const existing = this.#grants.get(key);
    if (existing !== undefined) return existing;
    const grant: RunGrant = Object.freeze({
      id: this.#nextId,
      toolName: request.toolName,
      arguments: canonicalJson(request.call.arguments),
      environment: request.executionEnvironment,
      key,
    });
    this.#nextId += 1;
    await this.#options.observer?.granted?.(grant);
    this.#grants.set(key, grant);
    return grant;
  }

  /**
   * A grant for the same tool, arguments and environment as `request` under another key: what
   * the action is bound to changed since it was granted, so it is asked again.
   */
  outgrown(request: PermissionRequest, key: string): RunGrant | undefined {
    let shown: string;
    try {
      shown = canonicalJson(request.call.arguments);
    } catch {
      return undefined;
    }
    const action = {
      toolName: request.toolName,
      arguments: shown,
      environment: request.executionEnvironment,
    };
    // The newest: after a second a, the question names the grant that held last.
    return this.list().findLast((grant) => grant.key !== key && sameAction(grant, action));
  }

  /**
   * The newest later grant of the same tool, arguments and environment: the person answered `a`
   * again after what this one is bound to changed, so this one holds only if that changes back.
   */
  replacedBy(grant: RunGrant): RunGrant | undefined {
    return this.list().findLast((later) => later.id > grant.id && sameAction(later, grant));
  }

  list(): readonly RunGrant[] {
    return [...this.#grants.values()];
  }

  /** Returns whether a grant with that id was there. It is gone at once, journaled or not. */
  async revoke(id: number): Promise<boolean> {
    for (const [key, grant] of this.#grants) {
      if (grant.id !== id) continue;
      this.#grants.delete(key);
      await this.#options.observer?.revoked?.(grant);
      return true;
    }
    return false;
  }
}

type Action = Pick<RunGrant, "toolName" | "arguments" | "environment">;

/** The same tool, arguments and environment: what the person saw, whatever it was bound to. */
function sameAction(a: Action, b: Action): boolean {
  return (
    a.toolName === b.toolName && a.arguments === b.arguments && a.environment === b.environment
  );
}

export interface DailyApproverOptions {
  readonly prompt: RunApprovalPrompt;
  readonly grants: RunGrants;
  readonly rules?: PersonalRules;
  readonly executionEnvironment?: ExecutionEnvironment;
}

/** Why a command is not kept for the run where commands run on the host. */
export const HOST_COMMANDS_NOT_KEPT =
  "commands run outside the sandbox here, where one allowed again could change files that later sessions, editors or shells load";

/**
 * Answers the policy's `ask` (every deny has already won by then): a personal allow rule that
 * fits exactly, else a grant of this run for exactly this action, else the person at `[y/N/a]`.
 * A command is kept for the run only where it runs in the sandbox, as a personal allow of a
 * command holds only there: what a command allowed again runs may have changed since (its
 * imports, its Makefile's includes), and only the sandbox keeps what the host loads later out
 * of its reach. An action no grant can keep is asked `[y/N]`, saying why.
 */
export class DailyApprover implements ApprovalProvider {
  readonly #options: DailyApproverOptions;

  constructor(options: DailyApproverOptions) {
    this.#options = options;
  }

  async decide(request: PermissionRequest): Promise<PermissionDecision> {
    const { prompt, grants, rules } = this.#options;
    const isolated = this.#isolated();
    const personal = rules?.allowFor(request, isolated);
    if (personal !== undefined) return personal;
    if (request.call.effect === "execute" && !isolated) {
      // A rule of the person's that would allow it in the sandbox is named: it looks ignored.
      const inSandbox = rules?.allowFor(request, true);
      return prompt.decideOnce(
        request,
        inSandbox === undefined
          ? HOST_COMMANDS_NOT_KEPT
          : `${HOST_COMMANDS_NOT_KEPT}; "${inSandbox.reason}" holds only in the sandbox`,
      );
    }
    const keyed = grants.keyOrWhyNot(request);
    if ("whyNot" in keyed) return prompt.decideOnce(request, keyed.whyNot);
    const held = grants.heldBy(keyed.key);
    if (held !== undefined) {
      return PermissionDecision.allow(
        "You allowed exactly this action for the rest of this run",
        RUN_GRANT_SOURCE,
        grantScope(held),
      );
    }
    const outgrown = grants.outgrown(request, keyed.key);
    const answer = await prompt.decideForRun(
      request,
      outgrown === undefined
        ? rules?.uncovered(request)
        : `Asked again: ${request.call.effect === "execute" ? "what the command runs" : "where the write lands"} changed since your a for it (grant ${String(outgrown.id)})`,
    );
    if (answer.forRun && answer.decision.behavior === "allow") {
      const grant = await grants.grant(request, keyed.key);
      if (grant !== undefined) {
        const { reason, source } = answer.decision;
        return PermissionDecision.allow(reason, source, grantScope(grant));
      }
    }
    return answer.decision;
  }

  #isolated(): boolean {
    try {
      return this.#options.executionEnvironment?.status().kind === "isolated";
    } catch {
      return false;
    }
  }
}
