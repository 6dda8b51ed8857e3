/**
 * The test MCP server (tests/support/mcp-notes-server.ts) as the person's settings file names it
 * for a CLI test: a stdio program, or the same server over Streamable HTTP on 127.0.0.1, started
 * for the file. Either notes each write it is sent (with its operation id) in the test's log.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterAll, beforeAll } from "vitest";
import { NOTES_SERVER_COMMAND, notesServer } from "../support/mcp-notes-server.js";
import type { AgentFixture } from "./agent-fixture.js";
import { runCli, serverEnv, type CliRun } from "./cli-process.js";

export type McpTransport = "stdio" | "http";
export const MCP_TRANSPORTS: readonly McpTransport[] = ["stdio", "http"];

export interface McpNotesFixture {
  /** Writes the settings file: the notes server over `transport`, chapter 4's allowlist `allow`. */
  readonly settings: (transport: McpTransport, allow?: string[]) => Promise<void>;
  /** What the server was sent this test, one line each. */
  readonly logged: () => Promise<string[]>;
  /** The environment of a run that reads that settings file. */
  readonly env: (extra?: Record<string, string>) => Record<string, string>;
  readonly cli: (args: readonly string[], extra?: Record<string, string>) => Promise<CliRun>;
  /**
   * NODE_OPTIONS for a run that notes in a file each time the agent requires the MCP SDK's
   * separate file (dist/agent-mcp.cjs); the file's path is returned with it.
   */
  readonly watchingSdkLoads: () => Promise<{ env: Record<string, string>; loads: string }>;
}

/** Registers the HTTP server's hooks; call at the top of a test file, after useAgentFixture. */
export function useMcpNotes(e2e: AgentFixture): McpNotesFixture {
  // Stateless: one MCP server per request (as the SDK's example), each writing to the log its
  // URL names, so every test has its own log.
  let http: Server | undefined;
  let url = "";
  beforeAll(async () => {
    http = createServer((request, response) => {
      const log = new URL(request.url ?? "/", "http://127.0.0.1").searchParams.get("log");
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      const mcp = notesServer({ NOTES_LOG: log ?? undefined });
      response.on("close", () => void transport.close());
      void mcp.connect(transport).then(() => transport.handleRequest(request, response));
    });
    await new Promise<void>((resolve) => http?.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    await new Promise((resolve) => http?.close(resolve));
  });

  const notesLog = (): string => join(e2e.dir.root, "notes.log");
  const env = (extra: Record<string, string> = {}): Record<string, string> =>
    serverEnv(e2e.server.baseURL, {
      AGENT_STATE_DIR: join(e2e.dir.root, "state"),
      XDG_CONFIG_HOME: join(e2e.dir.root, "config"),
      ...extra,
    });
  return {
    settings: async (transport, allow = []) => {
      const directory = join(e2e.dir.root, "config", "agent-harness");
      await mkdir(directory, { recursive: true });
      const notes =
        transport === "stdio"
          ? { ...NOTES_SERVER_COMMAND, env: { NOTES_LOG: notesLog() }, allow }
          : { url: `${url}?log=${encodeURIComponent(notesLog())}`, allow };
      await writeFile(join(directory, "settings.json"), JSON.stringify({ mcpServers: { notes } }));
    },
    logged: async () => {
      if (!existsSync(notesLog())) return [];
      return (await readFile(notesLog(), "utf8")).split("\n").filter(Boolean);
    },
    env,
    cli: (args, extra = {}) =>
      runCli([...args, "--workspace", e2e.dir.workspace], { env: env(extra) }),
    watchingSdkLoads: async () => {
      const loads = join(e2e.dir.root, "sdk-loads.txt");
      const hook = join(e2e.dir.root, "sdk-hook.cjs");
      await writeFile(
        hook,
        [
          'const Module = require("node:module");',
          'const { appendFileSync } = require("node:fs");',
          "const load = Module._load;",
          "Module._load = function (request, ...rest) {",
          `  if (String(request).includes("agent-mcp")) appendFileSync(${JSON.stringify(loads)}, request + "\\n");`,
          "  return load.call(this, request, ...rest);",
          "};",
        ].join("\n"),
      );
      return { env: { NODE_OPTIONS: `--require ${hook}` }, loads };
    },
  };
}
