/** `/mcp` in a conversation: this run's MCP servers, each with its state and tools now. */
import type { McpServerState } from "../../../bootstrap.js";
import { writeHarnessLines } from "../render/harness-rows.js";
import { escapeForPrompt } from "../render/terminal-text.js";
import type { SlashCommand } from "./slash-commands.js";

export function mcpSlashCommand(servers: () => readonly McpServerState[]): SlashCommand {
  return {
    name: "mcp",
    summary: "This run's MCP servers and their tools",
    run: (_args, state) => {
      const listed = servers();
      const lines =
        listed.length === 0
          ? [
              "agent: no MCP servers in this run (chapter 4 and --profile daily start the settings file's mcpServers; chapters 1-3 never do; agent mcp checks them)",
            ]
          : listed.map((server) => {
              const head = `${server.name}  ${server.transport}  ${server.state}`;
              return server.state === "ready"
                ? `${head}  ${toolCount(server.tools.length)}: ${server.tools.join(", ")}`
                : `${head}: ${server.reason ?? "unknown"}`;
            });
      // Broken between words on a terminal, as /permissions is: a long tool list or reason.
      writeHarnessLines(
        state.output,
        lines.map((line) => escapeForPrompt(line)),
      );
      return "continue";
    },
  };
}

/** `1 tool`, `3 tools`: a server's tools, in `/mcp` and `agent mcp`. */
export function toolCount(count: number): string {
  return `${String(count)} ${count === 1 ? "tool" : "tools"}`;
}
