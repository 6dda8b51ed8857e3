/**
 * The person's MCP servers for one run: all started at once, each one either ready with its tools
 * or failed with one line (never a stack trace), and all stopped with the run.
 */
import type { McpServersSetting } from "../settings/index.js";
import { McpConnection, type ConnectOptions } from "./mcp-connection.js";
import { toolsOf, type McpTool } from "./mcp-tools.js";
import { oneLine } from "../../core/common/one-line.js";

export interface McpServerState {
  readonly name: string;
  readonly transport: "stdio" | "http";
  /** `stopped`: was ready, then went away during the run. */
  readonly state: "ready" | "failed" | "stopped";
  /** Tools offered (ready servers). */
  readonly tools: readonly string[];
  /** Why it failed, one line, secrets redacted. */
  readonly reason?: string;
}

export interface StartedMcpServers {
  readonly tools: readonly McpTool[];
  readonly states: readonly McpServerState[];
  /**
   * For the model and the person: one line for each server that failed and each tool left out.
   * The model reads them so it does not look for a tool that is not there.
   */
  readonly notes: readonly string[];
  /** The states as they are now: a server that died since the start is `stopped`, with why. */
  statesNow(): readonly McpServerState[];
  /** Stops every server (the stdio programs end). */
  close(): Promise<void>;
}

export async function startMcpServers(
  servers: McpServersSetting,
  options: ConnectOptions,
): Promise<StartedMcpServers> {
  const entries = Object.entries(servers);
  const settled = await Promise.all(
    entries.map(async ([name, setting]) => {
      try {
        return { name, setting, connection: await McpConnection.connect(name, setting, options) };
      } catch (error) {
        return {
          name,
          setting,
          reason: oneLine(error instanceof Error ? error.message : String(error), 300),
        };
      }
    }),
  );
  const tools: McpTool[] = [];
  const states: McpServerState[] = [];
  const notes: string[] = [];
  const connections: McpConnection[] = [];
  for (const started of settled) {
    const transport = "command" in started.setting ? "stdio" : "http";
    if (started.connection === undefined) {
      states.push({
        name: started.name,
        transport,
        state: "failed",
        tools: [],
        reason: started.reason,
      });
      notes.push(
        `MCP server "${started.name}" is unavailable (${started.reason}); its tools are not offered in this run`,
      );
      continue;
    }
    connections.push(started.connection);
    const listed = toolsOf(started.connection);
    tools.push(...listed.tools);
    notes.push(...listed.notes);
    states.push({
      name: started.name,
      transport,
      state: "ready",
      tools: listed.tools.map((tool) => tool.tool),
    });
  }
  const byName = new Map(connections.map((connection) => [connection.name, connection]));
  return {
    tools,
    states,
    notes,
    statesNow: () =>
      states.map((state) => {
        const stopped = byName.get(state.name)?.stopped;
        return stopped === undefined ? state : { ...state, state: "stopped", reason: stopped };
      }),
    close: async () => {
      await Promise.all(connections.map((connection) => connection.close()));
    },
  };
}
