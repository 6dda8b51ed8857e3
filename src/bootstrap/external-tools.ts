/**
 * The person's MCP servers for one run (adapters/mcp): started only for a profile that lists
 * their tools and only when the settings file names any, so a run without servers never loads the
 * SDK; each failure is one line for the person, and the same line reaches the model.
 */
import { startMcpServers } from "../adapters/mcp/index.js";
import type { ExternalTools } from "./build-agent.js";
import type { RunSettings } from "./run-settings.js";

export interface StartedExternalTools {
  readonly tools: ExternalTools;
  close(): Promise<void>;
}

export async function startExternalTools(
  settings: Pick<RunSettings, "profile" | "mcpServers" | "workspace" | "host">,
  notice: (line: string) => void,
): Promise<StartedExternalTools | undefined> {
  const servers = settings.mcpServers;
  if (settings.profile.mcpTools === "none" || servers === undefined) return undefined;
  if (Object.keys(servers).length === 0) return undefined;
  const started = await startMcpServers(servers, {
    hostEnv: settings.host.env,
    cwd: settings.workspace,
  });
  for (const line of started.notes) notice(line);
  const allow = new Map(
    Object.entries(servers).map(([name, server]) => [name, new Set(server.allow ?? [])]),
  );
  return {
    tools: {
      tools: started.tools,
      allowed: (server, tool) => allow.get(server)?.has(tool) === true,
      notes: started.notes,
    },
    close: () => started.close(),
  };
}
