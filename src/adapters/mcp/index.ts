/**
 * MCP servers (the Model Context Protocol, through the official SDK): the person's stdio and
 * Streamable HTTP servers, their tools as registry tools `mcp__<server>__<tool>`.
 */
export { startMcpServers, type McpServerState, type StartedMcpServers } from "./mcp-servers.js";
export { mcpToolName, type McpTool } from "./mcp-tools.js";
export { REDACTED } from "./secrets.js";
export { WORKSPACE_VARIABLE, type StdioPlace } from "./stdio-launch.js";
