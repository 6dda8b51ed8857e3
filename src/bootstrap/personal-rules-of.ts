/**
 * The person's own rules as the policy and the search tools read them, with what they ask of the
 * disk (where a write lands, what a read reaches) answered by a boundary of their own.
 */
import { NodeWorkspaceWriteBoundary } from "../adapters/filesystem/index.js";
import { PersonalRules } from "../core/policy/personal-rules.js";
import type { ChapterProfile } from "../core/profiles.js";
import { GLOB_TOOL_NAME } from "../features/glob-tool.js";
import { GREP_TOOL_NAME } from "../features/grep-tool.js";
import type { AgentDependencies } from "./agent-dependencies.js";
import { loadedLaterProbes } from "./loaded-later-probes.js";
import { protectedFiles } from "./protected-files.js";

/** The person's own rules, as the profile takes them (none for the tutorial's chapters). */
export function personalRulesOf(profile: ChapterProfile, deps: AgentDependencies): PersonalRules {
  // A personal allow asks the disk whether a loaded-later link reads, or an install-time script
  // runs, the file it would write; a deny, what a read reaches through links.
  const boundary = new NodeWorkspaceWriteBoundary(protectedFiles(deps));
  const specs = profile.personalRules ? (deps.runAnswers?.personalRules ?? []) : [];
  return new PersonalRules(specs, {
    ...loadedLaterProbes(boundary, deps.workspace),
    withholdingTools: new Set([GREP_TOOL_NAME, GLOB_TOOL_NAME]),
    readingTools: new Set([GREP_TOOL_NAME, GLOB_TOOL_NAME]),
    reaches: (path) => boundary.readingNow(deps.workspace, path),
    confinedTools: new Set(["read_file", "write_file", "edit_file", GREP_TOOL_NAME]),
  });
}
