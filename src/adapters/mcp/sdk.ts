/**
 * The parts of the MCP SDK the client uses, in one module: imported only when a server starts,
 * and built on its own (dist/agent-mcp.cjs, scripts/bundle.js), so a run without servers neither
 * loads nor reads it.
 */
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
export { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
export { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
export { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
