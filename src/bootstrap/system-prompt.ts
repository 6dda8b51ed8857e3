/**
 * What the model is told at the start of a run: the profile's own prompt with this run's facts
 * (the shell, a network-off sandbox, the MCP tools) and the project's instructions after it.
 */
import type { ChapterProfile } from "../core/profiles.js";
import { SANDBOX_NETWORK_OFF_NOTICE } from "../features/sandbox-network-notice.js";
import type { AgentDependencies } from "./agent-dependencies.js";
import { listedExternalTools } from "./listed-external-tools.js";

/** Said to the model when a profile lists MCP tools and decides them by the allowlist (P04). */
export const EXTERNAL_TOOLS_PROMPT =
  "Tools named mcp__<server>__<tool> act through the person's MCP servers, outside this machine: each call is refused unless the person's allowlist names it, and then a person approves it.";
/** Said to the model when a profile lists MCP tools and asks the person about each call. */
export const EXTERNAL_TOOLS_ASK_PROMPT =
  "Tools named mcp__<server>__<tool> act through the person's MCP servers, outside this machine: each call is shown to the person for approval first, unless they allowed it before.";

/**
 * The profile's system prompt for this run: the shell's name filled in and, when shell commands
 * run in the sandbox with the network off, the model told so once.
 */
export function systemPromptFor(profile: ChapterProfile, deps: AgentDependencies): string {
  const lines = [...profile.systemPrompt];
  if (profile.commandTool === "shell" && deps.sandboxNetworkOff === true) {
    lines.splice(lines.length - 1, 0, SANDBOX_NETWORK_OFF_NOTICE);
  }
  const external = listedExternalTools(profile, deps);
  if (external !== undefined && (external.tools.length > 0 || external.notes.length > 0)) {
    const said = profile.mcpTools === "ask" ? EXTERNAL_TOOLS_ASK_PROMPT : EXTERNAL_TOOLS_PROMPT;
    lines.splice(lines.length - 1, 0, said, ...external.notes);
  }
  return lines.join("\n").replace("{shell}", deps.commandRunner.shellName);
}

/** The project's instructions come after the harness's own prompt, under their own heading. */
export function withInstructions(prompt: string, instructions: string | undefined): string {
  return instructions === undefined || instructions === ""
    ? prompt
    : `${prompt}\n\n${instructions}`;
}
