// A test MCP server, written with the SDK's server side: `read_note` (read-only), `write_note`
// (writes a line to $NOTES_LOG, with the operation id it was sent under) and `crash_midway` (says
// it started, then the process dies before it answers). Run as a program it speaks stdio;
// `notesServer()` is the same server for a Streamable HTTP test.
import { appendFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { fileURLToPath } from "node:url";
import { z } from "zod";

const PIXEL =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/** How a test starts this server as a stdio program: node with tsx, from any directory. */
export const NOTES_SERVER_COMMAND = {
  command: process.execPath,
  args: [
    "--import",
    new URL("../../node_modules/tsx/dist/loader.mjs", import.meta.url).href,
    fileURLToPath(import.meta.url),
  ],
};

export function notesServer(
  env: Readonly<Record<string, string | undefined>> = process.env,
): McpServer {
  const log = (line: string): void => {
    if (env.NOTES_LOG !== undefined) appendFileSync(env.NOTES_LOG, `${line}\n`);
  };
  const server = new McpServer({ name: "notes", version: "1.0.0" });
  server.registerTool(
    "read_note",
    {
      description: "Reads a note by name.",
      inputSchema: { name: z.string() },
      annotations: { readOnlyHint: true },
    },
    ({ name }) => ({
      content: [
        { type: "text", text: `note ${name}: token ${env.NOTES_TOKEN ?? "(none)"}` },
        { type: "image", data: PIXEL, mimeType: "image/png" },
      ],
    }),
  );
  server.registerTool(
    "write_note",
    { description: "Writes a note.", inputSchema: { name: z.string(), text: z.string() } },
    ({ name, text }, extra) => {
      log(`write ${name} ${text} ${String(extra._meta?.["agent-harness/operationId"])}`);
      return { content: [{ type: "text", text: `wrote ${name}` }] };
    },
  );
  server.registerTool(
    "crash_midway",
    { description: "Starts, then the server dies.", inputSchema: {} },
    () => {
      log("crash_midway started");
      process.exit(7);
    },
  );
  server.registerTool(
    "bad-name",
    { description: "A name the model API cannot take.", inputSchema: {} },
    () => ({ content: [] }),
  );
  return server;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stderr.write("notes server starting\n");
  await notesServer().connect(new StdioServerTransport());
}
