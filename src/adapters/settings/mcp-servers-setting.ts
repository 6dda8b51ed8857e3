/**
 * `mcpServers` in the person's settings file: the MCP servers whose tools a run may list
 * (docs/mcp.md). Only this file configures them, never the workspace: a server is a program the
 * harness starts, or a service it sends the person's credentials to.
 *
 * A secret (an environment value for a stdio server, a header for an HTTP one) is written in the
 * file or named as a host variable, `{"fromEnv": "GITHUB_TOKEN"}`; either way the model never sees
 * it, and results are redacted of it.
 */
import { z } from "zod";

/** Part of every tool's name (`mcp__<server>__<tool>`): no `__` inside, so the name splits back. */
export const MCP_SERVER_NAME = /^[A-Za-z0-9]+(?:_[A-Za-z0-9]+)*$/;
const MAX_SERVER_NAME = 24;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function buildMcpServersSchema() {
  const secret = z.union([
    z.string(),
    z.strictObject({
      fromEnv: z.string().regex(ENV_NAME, "must be an environment variable's name"),
    }),
  ]);
  const common = {
    /** The tools (by their name on the server) chapter 4 may ask about; the rest it denies. */
    allow: z.array(z.string().min(1)).optional(),
    /** Seconds one tool call may take before it is given up as `execution_unknown`. */
    timeout: z.number().min(1).max(3600).optional(),
  };
  const stdio = z.strictObject({
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    env: z.record(z.string().regex(ENV_NAME, "must be a variable name"), secret).optional(),
    ...common,
  });
  const http = z.strictObject({
    url: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }),
    headers: z.record(z.string().min(1), secret).optional(),
    ...common,
  });
  return z.record(
    z
      .string()
      .max(MAX_SERVER_NAME, `a server's name is at most ${String(MAX_SERVER_NAME)} characters`)
      .regex(MCP_SERVER_NAME, "a server's name is letters and digits, single _ between them"),
    z.union([stdio, http]),
  );
}

export type McpServersSetting = z.infer<ReturnType<typeof buildMcpServersSchema>>;
export type McpServerSetting = McpServersSetting[string];
