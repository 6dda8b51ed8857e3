/**
 * The tools a profile gives the model, in the order it sees them, each built with the checks its
 * profile promises (run_command only with its grant path).
 */
import {
  NodeWorkspaceFileSystem,
  type WorkspaceFileSystemOptions,
} from "../adapters/filesystem/index.js";
import { recheckApprovedCommand } from "../core/grants/p04-recheck.js";
import { commandsEndWithTheirCalls } from "../core/policy/execution-environment.js";
import type { PersonalRules } from "../core/policy/personal-rules.js";
import type { WorkspaceFileSystem } from "../core/ports/filesystem.js";
import type { ChapterProfile } from "../core/profiles.js";
import type { ToolDefinition } from "../core/tools/tool-definition.js";
import { createFileTools, createShellTool } from "../features/builtin-tools.js";
import { createFetchUrlTool } from "../features/fetch-url-tool.js";
import { GLOB_TOOL_NAME } from "../features/glob-tool.js";
import { createGrepTool, GREP_TOOL_NAME } from "../features/grep-tool.js";
import { createRunCommandTool } from "../features/run-command-tool.js";
import type { AgentDependencies } from "./agent-dependencies.js";
import { BootstrapError } from "./bootstrap-error.js";
import { commandEnvironmentOf, grantsOf, type GrantPath } from "./grant-path.js";
import { listedExternalTools } from "./listed-external-tools.js";
import { protectedFiles } from "./protected-files.js";

/** In the order the model sees them: the command tool, the four file tools, then `fetch_url`. */
export function buildTools(
  profile: ChapterProfile,
  deps: AgentDependencies,
  grants: GrantPath | undefined,
  personal: PersonalRules,
): ToolDefinition[] {
  const run = {
    workspace: deps.workspace,
    ...(deps.commandTimeoutMs === undefined ? {} : { timeoutMs: deps.commandTimeoutMs }),
    ...(deps.outputs === undefined ? {} : { outputs: deps.outputs }),
  };
  const tools: ToolDefinition[] = [];
  switch (profile.commandTool) {
    case "shell":
      tools.push(
        createShellTool({
          runner: deps.commandRunner,
          ...run,
          ...(deps.sandboxNetworkOff === true ? { networkOff: true } : {}),
        }),
      );
      break;
    case "run_command": {
      // Argv commands run in the sandbox only, and only as a grant approved them: the tool asks
      // both again just before the spawn, so it is built with both checks or not at all.
      if (grants === undefined) {
        throw new BootstrapError(`${profile.id}: run_command runs only what a grant approved`);
      }
      tools.push(
        createRunCommandTool({
          runner: grantsOf(deps).argvRunner,
          ...run,
          environment: commandEnvironmentOf(deps),
          recheck: (callId, input) =>
            recheckApprovedCommand(callId, input, grants.approved, grants.context()),
        }),
      );
      break;
    }
  }
  if (profile.capabilities.has("files")) {
    tools.push(
      ...createFileTools({
        fileSystem: fileSystemOf(deps),
        withheldFromGlob: personal.withheldFrom(GLOB_TOOL_NAME),
      }),
    );
  }
  if (profile.search === "grep") {
    tools.push(
      createGrepTool({
        fileSystem: fileSystemOf(deps),
        withheld: personal.withheldFrom(GREP_TOOL_NAME),
      }),
    );
  }
  if (profile.capabilities.has("fetch_url")) tools.push(createFetchUrlTool());
  for (const external of listedExternalTools(profile, deps)?.tools ?? []) {
    tools.push(external.definition);
  }
  return tools;
}

function fileSystemOf(deps: AgentDependencies): WorkspaceFileSystem {
  return deps.fileSystem ?? new NodeWorkspaceFileSystem(deps.workspace, workspaceFiles(deps));
}

/**
 * A command run in the sandbox ends with its call, processes and all; a command on the host (or
 * a runner handed in without an execution environment) may leave one running that swaps
 * directories while glob walks, so glob then lists through held descriptors. The answer is asked
 * at each glob and covers this run's commands only: a process left by an earlier unsandboxed run
 * has the user's rights anyway.
 */
function workspaceFiles(deps: AgentDependencies): WorkspaceFileSystemOptions {
  return {
    ...protectedFiles(deps),
    noProcessRunsAlongside: () => commandsEndWithTheirCalls(deps.executionEnvironment),
  };
}
