/**
 * The composition root: the one place that turns a chapter profile into a running agent. It builds
 * the permission policy itself, so no caller can hand in a looser one.
 */
import { AgentRunner } from "../core/runner/agent-runner.js";
import { PermissionPolicy } from "../core/policy/permissions.js";
import { isCanonicalProfile, type ChapterProfile } from "../core/profiles.js";
import { ToolRegistry } from "../core/tools/tool-registry.js";
import { BootstrapError } from "./bootstrap-error.js";
import type { AgentDependencies } from "./agent-dependencies.js";
import { systemPromptFor, withInstructions } from "./system-prompt.js";
import { buildTools } from "./build-tools.js";
import { personalRulesOf } from "./personal-rules-of.js";
import { refuseUnusableRules } from "./unusable-personal-rules.js";
import { buildPolicy } from "./build-policy.js";
import { grantPath } from "./grant-path.js";

/** Model replies per task: a real fix-and-test task takes 30–150 tool calls. */
export const DEFAULT_MAX_TURNS = 200;

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
    throw new BootstrapError(
      "Unknown profile: use P01, P02, P03, P04 or daily from src/core/profiles.ts",
    );
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
