/**
 * The composition root: the one place that turns a chapter profile into a running agent. It builds
 * the permission policy itself, so no caller can hand in a looser one.
 */
import { NodeWorkspaceWriteBoundary } from "../adapters/filesystem/index.js";
import { AgentRunner } from "../core/runner/agent-runner.js";
import type { ApprovalProvider } from "../core/policy/approval.js";
import type { PermissionRequest } from "../core/policy/permission-request.js";
import type { AuditSink } from "../core/policy/audit.js";
import { GrantApprovalProvider } from "../core/grants/grant-approval.js";
import { P04Authorizer } from "../core/grants/p04-authorizer.js";
import { PermissionPolicy } from "../core/policy/permissions.js";
import { PermissionRule } from "../core/policy/permission-rule.js";
import { isCanonicalProfile, type ChapterProfile } from "../core/profiles.js";
import { ToolRegistry } from "../core/tools/tool-registry.js";
import { PersonalRules } from "../core/policy/personal-rules.js";
import {
  DailyApprover,
  RunGrants,
  type RunApprovalAnswer,
  type RunApprovalPrompt,
} from "../core/policy/run-grants.js";
import { BootstrapError } from "./bootstrap-error.js";
import type { AgentDependencies } from "./agent-dependencies.js";
import { systemPromptFor, withInstructions } from "./system-prompt.js";
import { protectedFiles } from "./protected-files.js";
import { buildTools } from "./build-tools.js";
import { personalRulesOf } from "./personal-rules-of.js";
import { refuseUnusableRules } from "./unusable-personal-rules.js";
import { grantPath, grantsOf, type GrantPath } from "./grant-path.js";

/** Model replies per task: a real fix-and-test task takes 30–150 tool calls. */
export const DEFAULT_MAX_TURNS = 200;

export const CONFIRM_FILE_WRITE = new PermissionRule({
  name: "confirm-file-write",
  behavior: "ask",
  reason: "File writes require explicit approval from chapter 3 onward",
  matches: (request) => request.toolName === "write_file" || request.toolName === "edit_file",
});

/**
 * A call that acts outside this machine (an MCP server's tool, whatever effect its server
 * claims) asks on a terminal path: without this rule nothing would ask, and a passthrough is an
 * allow. By effect, never by name: a personal rule or a run grant may answer the ask.
 */
export const CONFIRM_EXTERNAL_CALL = new PermissionRule({
  name: "confirm-external-call",
  behavior: "ask",
  reason: "A call to an MCP server acts outside this machine and requires approval",
  matches: (request) => request.call.remote || request.call.effect === "external",
});

export function buildAgent(profile: ChapterProfile, deps: AgentDependencies): AgentRunner {
  const { registry, policy } = buildToolPath(profile, deps);
  return new AgentRunner({
    model: deps.model,
    registry,
    maxTurns: deps.maxTurns ?? DEFAULT_MAX_TURNS,
    systemPrompt: withInstructions(systemPromptFor(profile, deps), deps.instructions),
    policy,
    ...(deps.contextWindow === undefined ? {} : { contextWindow: deps.contextWindow }),
    workspace: deps.workspace,
    identity: {
      profile: profile.id,
      ...(deps.grants === undefined ? {} : { runId: deps.grants.runId }),
    },
    ...(deps.observer === undefined ? {} : { observer: deps.observer }),
    ...(deps.journal === undefined ? {} : { journal: deps.journal }),
    ...(deps.auditSink === undefined ? {} : { outcomes: deps.auditSink }),
    // Seed 004's outcome notes; the tutorial pins chapters 1–3's whole messages.
    ...(profile.outcomeNotes ? { tellOutcomes: true } : {}),
    ...(deps.executionEnvironment === undefined
      ? {}
      : { executionEnvironment: deps.executionEnvironment }),
  });
}

/**
 * The tools and the policy of a profile, as its fields say: what `buildAgent` runs, and what
 * `agent explain` dry-runs with recorders for approver and audit.
 */
export function buildToolPath(
  profile: ChapterProfile,
  deps: AgentDependencies,
): { readonly registry: ToolRegistry; readonly policy: PermissionPolicy } {
  if (!isCanonicalProfile(profile)) {
    throw new BootstrapError("Unknown profile: use P01, P02, P03 or P04 from src/core/profiles.ts");
  }
  if (!profile.capabilities.has("loop") || !profile.capabilities.has("tool_registry")) {
    throw new BootstrapError(`${profile.id} has no agent loop or tool registry to build`);
  }
  // With grants, the policy and `run_command` share what was approved: the tool checks it again
  // against what would run, just before the spawn.
  const grants = profile.approvals === "grants" ? grantPath(profile, deps) : undefined;
  // The policy decides by the person's rules; grep and glob leave out what they deny or ask.
  const personal = personalRulesOf(profile, deps);
  const policy = buildPolicy(profile, deps, grants, personal);
  const tools = buildTools(profile, deps, grants, personal);
  refuseUnusableRules(profile, deps.runAnswers?.personalRules ?? [], tools);
  return { registry: new ToolRegistry(tools), policy };
}

function buildPolicy(
  profile: ChapterProfile,
  deps: AgentDependencies,
  grants: GrantPath | undefined,
  personal: PersonalRules,
): PermissionPolicy {
  const environment =
    deps.executionEnvironment === undefined
      ? {}
      : { executionEnvironment: deps.executionEnvironment };
  if (!profile.capabilities.has("policy")) {
    // Before chapter 3 the only participants are the shell default, the execution environment (a
    // required sandbox that cannot be had denies) and the person at the prompt. There is always a
    // policy: without an approver, the shell default's `ask` becomes a denial, never a free pass.
    return new PermissionPolicy({
      ...(deps.approvalProvider === undefined ? {} : { approval: deps.approvalProvider }),
      ...environment,
    });
  }
  switch (profile.approvals) {
    case "terminal":
      if (deps.approvalProvider === undefined) {
        throw new BootstrapError("approvalProvider is required for chapter 3 or later");
      }
      return new PermissionPolicy({
        workspaceBoundary: workspaceBoundary(deps),
        ...terminalAnswers(profile, deps, deps.approvalProvider, personal),
        keepsContent: (request) => personal.keepsContent(request),
        audit: auditSinkOf(deps),
        ...environment,
      });
    case "grants":
      return buildDefaultDenyPolicy(deps, grants ?? grantPath(profile, deps));
  }
}

/**
 * Chapter 3's rule and approver, and, as the profile says, the person's own rules (their deny and
 * ask beside the write rule, where the merge lets a deny win) and `[y/N/a]` in front of the
 * approver: a personal allow, then a grant of this run, then the person.
 */
function terminalAnswers(
  profile: ChapterProfile,
  deps: AgentDependencies,
  approver: ApprovalProvider,
  personal: PersonalRules,
): { readonly rules: PermissionRule[]; readonly approval: ApprovalProvider } {
  // The person's own first: where theirs and the profile's both ask, the prompt gives their reason.
  const rules = [...personal.policyRules(), CONFIRM_FILE_WRITE, CONFIRM_EXTERNAL_CALL];
  const prompt = deps.runAnswers?.prompt;
  switch (profile.answers) {
    case "once":
      return { rules, approval: approver };
    case "once-or-run": {
      const bound = deps.runAnswers?.boundScript;
      const grants = new RunGrants({
        workspace: deps.workspace,
        ...(bound === undefined
          ? {}
          : {
              boundScript: (request) => {
                const command = request.call.arguments.command;
                return typeof command === "string" ? bound(command) : undefined;
              },
            }),
        ...(deps.runAnswers?.observer === undefined ? {} : { observer: deps.runAnswers.observer }),
        ...(deps.runAnswers?.restoredGrants === undefined
          ? {}
          : {
              restored: deps.runAnswers.restoredGrants.grants,
              issued: deps.runAnswers.restoredGrants.issued,
            }),
      });
      deps.runAnswers?.onGrants?.(grants);
      return {
        rules,
        approval: new DailyApprover({
          prompt: prompt ?? runPromptOf(approver),
          grants,
          rules: personal,
          ...(deps.executionEnvironment === undefined
            ? {}
            : { executionEnvironment: deps.executionEnvironment }),
        }),
      };
    }
  }
}

/**
 * The approver as a `[y/N/a]` prompt: the terminal's can say `a`; any other answers for this call
 * only.
 */
function runPromptOf(approver: ApprovalProvider): RunApprovalPrompt {
  const candidate = approver as Partial<RunApprovalPrompt>;
  const decideOnce =
    typeof candidate.decideOnce === "function"
      ? candidate.decideOnce.bind(approver)
      : (request: PermissionRequest) => approver.decide(request);
  if (typeof candidate.decideForRun === "function") {
    return { decideForRun: candidate.decideForRun.bind(approver), decideOnce };
  }
  return {
    decideForRun: async (request: PermissionRequest): Promise<RunApprovalAnswer> => ({
      decision: await approver.decide(request),
      forRun: false,
    }),
    decideOnce,
  };
}

/**
 * The seed's default deny, asked right after the workspace boundary; an `ask` is answered by a
 * grant for exactly that action, or waits.
 */
function buildDefaultDenyPolicy(deps: AgentDependencies, path: GrantPath): PermissionPolicy {
  const grants = grantsOf(deps);
  const environment = deps.executionEnvironment;
  return new PermissionPolicy({
    // The seed's authorizeWorkspacePath applies to reads too: a read outside is denied here.
    workspaceBoundary: { workspace: deps.workspace, boundary: path.boundary, reads: true },
    authorizer: new P04Authorizer(path.context),
    approval: new GrantApprovalProvider({
      grants: grants.grants,
      runId: grants.runId,
      grantTtlMs: grants.grantTtlMs,
      approved: path.approved,
      ...(deps.approvalProvider === undefined ? {} : { interactive: deps.approvalProvider }),
    }),
    audit: auditSinkOf(deps),
    ...(environment === undefined ? {} : { executionEnvironment: environment }),
  });
}

function auditSinkOf(deps: AgentDependencies): AuditSink {
  if (deps.auditSink === undefined) {
    throw new BootstrapError("auditSink is required for chapter 3 or later");
  }
  return deps.auditSink;
}

function workspaceBoundary(deps: AgentDependencies): {
  readonly workspace: string;
  readonly boundary: NodeWorkspaceWriteBoundary;
} {
  return {
    workspace: deps.workspace,
    boundary: new NodeWorkspaceWriteBoundary(protectedFiles(deps)),
  };
}
