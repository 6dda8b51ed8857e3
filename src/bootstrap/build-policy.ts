/**
 * The permission policy of a profile, built here and nowhere else so no caller can hand in a
 * looser one: a shell default before chapter 3, a person at a terminal from chapter 3, the seed's
 * default deny with grants for P04.
 */
import { NodeWorkspaceWriteBoundary } from "../adapters/filesystem/index.js";
import { GrantApprovalProvider } from "../core/grants/grant-approval.js";
import { P04Authorizer } from "../core/grants/p04-authorizer.js";
import type { AuditSink } from "../core/policy/audit.js";
import type { PersonalRules } from "../core/policy/personal-rules.js";
import { PermissionPolicy } from "../core/policy/permissions.js";
import type { ChapterProfile } from "../core/profiles.js";
import type { AgentDependencies } from "./agent-dependencies.js";
import { BootstrapError } from "./bootstrap-error.js";
import { grantPath, grantsOf, type GrantPath } from "./grant-path.js";
import { protectedFiles } from "./protected-files.js";
import { terminalAnswers } from "./terminal-answers.js";

export function buildPolicy(
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
 * The seed's default deny, asked right after the workspace boundary; an `ask` is answered by a
 * grant for exactly that action, or waits.
 */
export function buildDefaultDenyPolicy(deps: AgentDependencies, path: GrantPath): PermissionPolicy {
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
