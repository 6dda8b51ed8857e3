/**
 * The person's MCP servers for one run (adapters/mcp): started only for a profile that lists
 * their tools and only when the settings file names any, so a run without servers never loads the
 * SDK; each failure is one line for the person, and the same line reaches the model.
 */
import { startMcpServers, type McpServerState } from "../adapters/mcp/index.js";
import type { McpServersSetting } from "../adapters/settings/index.js";
import type { ExternalTools } from "./agent-dependencies.js";
import type { Host } from "./host.js";
import type { RunSettings } from "./run-settings.js";
import { mcpStdioPlace } from "./mcp-stdio-place.js";

export interface StartedExternalTools {
  readonly tools: ExternalTools;
  /** Each server's state now (`/mcp`). */
  states(): readonly McpServerState[];
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
    stdio: mcpStdioPlace(settings.workspace, settings.host),
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
    states: () => started.statesNow(),
    close: () => started.close(),
  };
}

/** One server as `agent mcp` shows it. */
export interface McpServerReport {
  readonly name: string;
  readonly transport: "stdio" | "http";
  readonly state: McpServerState["state"];
  /** Ready: each tool by its name on the server, with the effect it is registered with. */
  readonly tools: readonly { readonly tool: string; readonly effect: string }[];
  /** The tools chapter 4's allowlist names. */
  readonly allow: readonly string[];
  readonly reason?: string;
}

/**
 * `agent mcp`: starts each of the person's servers as a run would, lists what it offers, and
 * stops it; with the notes a run would give (tools left out).
 */
export async function checkMcpServers(
  servers: McpServersSetting,
  host: Host,
  workspace: string,
): Promise<{ readonly servers: readonly McpServerReport[]; readonly notes: readonly string[] }> {
  const started = await startMcpServers(servers, {
    hostEnv: host.env,
    stdio: mcpStdioPlace(workspace, host),
  });
  try {
    const reports = started.states.map((state): McpServerReport => {
      const tools = started.tools
        .filter((tool) => tool.server === state.name)
        .map((tool) => ({ tool: tool.tool, effect: tool.definition.effect }));
      return {
        name: state.name,
        transport: state.transport,
        state: state.state,
        tools,
        allow: servers[state.name]?.allow ?? [],
        ...(state.reason === undefined ? {} : { reason: state.reason }),
      };
    });
    return { servers: reports, notes: started.notes };
  } finally {
    await started.close();
  }
}
