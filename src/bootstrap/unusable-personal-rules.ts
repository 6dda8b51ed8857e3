/**
 * A rule of the person's that could never decide a call is refused before anything runs, by a run
 * and by `agent config` alike, against the tools the profile would build.
 */
import {
  describeRule,
  unusableRule,
  type PersonalRuleSpec,
} from "../core/policy/personal-rules.js";
import type { ChapterProfile } from "../core/profiles.js";
import type { ToolDefinition } from "../core/tools/tool-definition.js";
import type { AgentDependencies } from "./agent-dependencies.js";
import { BootstrapError } from "./bootstrap-error.js";
import { buildTools } from "./build-tools.js";
import { personalRulesOf } from "./personal-rules-of.js";

/**
 * What a run of `profile` would refuse of the person's rules before it starts, refused the same
 * way (`agent config`): the profile's own tools are made to be named, nothing is read or run. An
 * MCP server's tool is not started here, and a rule that names one is never refused.
 */
export function refuseUnusablePersonalRules(
  profile: ChapterProfile,
  rules: readonly PersonalRuleSpec[],
): void {
  if (!profile.personalRules || rules.length === 0) return;
  const deps: AgentDependencies = {
    model: { complete: () => Promise.reject(new Error("only the tools' names are asked for")) },
    workspace: ".",
    commandRunner: {
      shellName: "none",
      run: () => Promise.reject(new Error("only the tools' names are asked for")),
    },
    runAnswers: { personalRules: rules },
  };
  refuseUnusableRules(
    profile,
    rules,
    buildTools(profile, deps, undefined, personalRulesOf(profile, deps)),
  );
}

/** A rule of the person's that could never decide a call is a wrong setting: said at once. */
export function refuseUnusableRules(
  profile: ChapterProfile,
  rules: readonly PersonalRuleSpec[],
  tools: readonly ToolDefinition[],
): void {
  if (!profile.personalRules) return;
  const effects = new Map(tools.map((tool) => [tool.name, tool.effect]));
  for (const [index, rule] of rules.entries()) {
    const problem = unusableRule(rule, effects);
    if (problem === undefined) continue;
    throw new BootstrapError(
      `your settings file's rules[${index}] (${rule.behavior} ${describeRule(rule)}): ${problem}`,
    );
  }
}
