// A test MCP server that says where it was started: its one tool, `where`, answers with its
// working directory, AGENT_WORKSPACE, PATH and the roots the client offers. Run as a program it
// speaks stdio.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { fileURLToPath } from "node:url";

/** How a test starts this server: node with tsx, by node's absolute path. */
export const PLACE_SERVER_COMMAND = {
  command: process.execPath,
  args: [
    "--import",
    new URL("../../node_modules/tsx/dist/loader.mjs", import.meta.url).href,
    fileURLToPath(import.meta.url),
  ],
};

/** What `where` answers, as JSON. */
export interface ServerPlace {
  readonly cwd: string;
  readonly workspace: string | null;
  readonly path: string | null;
  readonly roots: readonly { readonly uri: string; readonly name?: string }[];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = new McpServer({ name: "place", version: "1.0.0" });
  server.registerTool("where", { description: "Says where this server runs." }, async () => {
    const { roots } = await server.server.listRoots();
    const place: ServerPlace = {
      cwd: process.cwd(),
      workspace: process.env.AGENT_WORKSPACE ?? null,
      path: process.env.PATH ?? null,
      roots,
    };
    return { content: [{ type: "text", text: JSON.stringify(place) }] };
  });
  await server.connect(new StdioServerTransport());
}
