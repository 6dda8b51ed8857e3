/**
 * Which of the started MCP servers' tools a profile takes: the prompt, the tools and the P04
 * policy each ask here, so they never disagree on what the model was given.
 */
import type { ExternalToolFacts } from "../core/grants/policy-context.js";
import type { ChapterProfile } from "../core/profiles.js";
import type { AgentDependencies, ExternalTools } from "./agent-dependencies.js";

/**
 * The MCP tools this profile lists: none for the tutorial's chapters, whatever is configured;
 * P04 decides them by the allowlist, the daily profile asks each call.
 */
export function listedExternalTools(
  profile: ChapterProfile,
  deps: AgentDependencies,
): ExternalTools | undefined {
  switch (profile.mcpTools) {
    case "none":
      return undefined;
    case "allowlist":
    case "ask":
      return deps.externalTools;
  }
}

/** Each listed MCP tool by its registered name, for the policy: external, allowlisted or not. */
export function externalToolFacts(
  profile: ChapterProfile,
  deps: AgentDependencies,
): ReadonlyMap<string, ExternalToolFacts> {
  const external = listedExternalTools(profile, deps);
  return new Map(
    (external?.tools ?? []).map(({ definition, server, tool }) => [
      definition.name,
      Object.freeze({ server, tool, allowed: external?.allowed(server, tool) === true }),
    ]),
  );
}
