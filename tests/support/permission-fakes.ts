import type { ApprovalProvider } from "../../src/core/policy/approval.js";
import type { AuditSink } from "../../src/core/policy/audit.js";
import type {
  ExecutionEnvironment,
  ExecutionEnvironmentStatus,
} from "../../src/core/policy/execution-environment.js";
import type { WorkspaceWriteBoundary, WriteTarget } from "../../src/core/ports/filesystem.js";
import { RECHECK_ERRORS } from "../../src/core/grants/p04-recheck.js";
import { toolError, type ToolResult } from "../../src/core/tools/tool-result.js";
import { PermissionDecision } from "../../src/core/policy/permission-decision.js";
import type { PermissionRequest } from "../../src/core/policy/permission-request.js";
import { PermissionRule } from "../../src/core/policy/permission-rule.js";
import { PermissionPolicy } from "../../src/core/policy/permissions.js";

/** Records every request and answers with whatever `answer` gives, even a non-decision. */
export class RecordingApprover implements ApprovalProvider {
  readonly requests: PermissionRequest[] = [];
  readonly #answer: (request: PermissionRequest) => unknown;

  constructor(answer: (request: PermissionRequest) => unknown) {
    this.#answer = answer;
  }

  async decide(request: PermissionRequest): Promise<PermissionDecision> {
    this.requests.push(request);
    // The policy must survive approvers that break the contract, so the answer is passed on as is.
    return (await this.#answer(request)) as PermissionDecision;
  }
}

export interface AuditEntry {
  readonly request: PermissionRequest;
  readonly decision: PermissionDecision;
}

export class RecordingAuditSink implements AuditSink {
  readonly entries: AuditEntry[] = [];
  readonly #failWith: Error | undefined;

  constructor(failWith?: Error) {
    this.#failWith = failWith;
  }

  record(request: PermissionRequest, decision: PermissionDecision): void {
    this.entries.push({ request, decision });
    if (this.#failWith !== undefined) throw this.#failWith;
  }

  /** `behavior (source) - reason` per entry, the shape of the terminal's `[Permission]` line. */
  lines(): string[] {
    return this.entries.map(
      ({ request, decision }) =>
        `${request.toolName}: ${decision.behavior} (${decision.source}) - ${decision.reason}`,
    );
  }
}

/**
 * Answers from a table of paths; a path not in the table is outside. Records every question.
 * `true` means inside; any other answer (a WriteTarget, or a contract-breaking value) is passed on.
 */
export class FakeWriteBoundary implements WorkspaceWriteBoundary {
  readonly questions: { workspace: string; path: string }[] = [];
  readonly #answer: (path: string) => unknown;

  constructor(answer: (path: string) => unknown) {
    this.#answer = answer;
  }

  async classifyWrite(workspace: string, path: string): Promise<WriteTarget> {
    this.questions.push({ workspace, path });
    const answer = await this.#answer(path);
    return (answer === true ? "inside" : answer) as WriteTarget;
  }
}

export class FixedEnvironment implements ExecutionEnvironment {
  calls = 0;
  readonly #status: () => unknown;

  constructor(status: () => unknown) {
    this.#status = status;
  }

  status(): ExecutionEnvironmentStatus {
    this.calls += 1;
    return this.#status() as ExecutionEnvironmentStatus;
  }
}

/** A sandbox a test assumes is there: `executeInSandbox` lets a command run in it. */
export const ASSUMED_SANDBOX: ExecutionEnvironmentStatus = {
  kind: "isolated",
  label: "sandbox: assumed by the test (network off)",
  network: "disabled",
};

/** What run_command asks just before the spawn: where it would run, and whether it is as approved. */
export interface CommandChecks {
  readonly environment: ExecutionEnvironment;
  readonly recheck: () => ToolResult | undefined;
}

/**
 * run_command's checks as a test about something else passes them: a sandbox that is there, and a
 * recheck that finds the command as it was approved. The tool has no default for either.
 */
export function commandChecksThatPass(): CommandChecks {
  return { environment: new FixedEnvironment(() => ASSUMED_SANDBOX), recheck: () => undefined };
}

/** run_command's checks for a tool that must never run a command: both refuse. */
export function commandChecksThatRefuse(): CommandChecks {
  return {
    environment: new FixedEnvironment(() => ({
      kind: "unavailable",
      reason: "this test runs no command",
    })),
    recheck: () => toolError(RECHECK_ERRORS.notApproved, "this test runs no command"),
  };
}

/** The source of every decision `allowEveryCall` makes, as its audit lines name it. */
export const ALLOWS_EVERY_CALL = "test-allows-every-call";

/**
 * A real policy for a runner test whose subject is not the policy: every call is allowed, and
 * every decision audited into `audit`. A rule allows each call; the one question no rule can
 * answer, the shell default's `ask` of every command, goes to an approver that allows it without
 * putting it to a person (it never calls `askingPerson`): no call then has a wait or
 * `personApproved`. A runner has no policy of its own to fall back on; a test says it allows.
 */
export function allowEveryCall(audit: AuditSink = new RecordingAuditSink()): PermissionPolicy {
  const reason = "This test allows every call";
  return new PermissionPolicy({
    rules: [
      new PermissionRule({
        name: ALLOWS_EVERY_CALL,
        behavior: "allow",
        reason,
        matches: () => true,
      }),
    ],
    approval: {
      decide: () => Promise.resolve(PermissionDecision.allow(reason, ALLOWS_EVERY_CALL)),
    },
    audit,
  });
}
