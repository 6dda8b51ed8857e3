/**
 * `agent mcp [--workspace DIR]`: the person's MCP servers (settings file, `mcpServers`), each
 * started as a run would start it, with its state and its tools, then stopped.
 */
import { checkMcpServers, loadPersonSettings } from "../../bootstrap.js";
import type { CliIo } from "../cli-io.js";
import { defaultWorkspace } from "../args.js";
import { resolveWorkspace } from "../settings/workspace.js";
import { EXIT } from "../exit-codes.js";
import { guarded, parseSubcommandArgs } from "../subcommand-args.js";
import { toolCount } from "../terminal/input/mcp-command.js";
import { escapeForPrompt } from "../terminal/render/terminal-text.js";

export function mcpCommand(args: readonly string[], io: CliIo): Promise<number> {
  return guarded(io, async () => {
    const { values, positionals } = parseSubcommandArgs("mcp", args);
    if (positionals.length > 0) throw new Error("agent mcp takes no arguments");
    const workspace = resolveWorkspace(values.workspace ?? defaultWorkspace(io.env, io.cwd));
    const host = { env: io.env, platform: io.platform };
    const file = loadPersonSettings(host);
    const servers = file.mcpServers ?? {};
    if (Object.keys(servers).length === 0) {
      io.stdout.write(`no MCP servers in ${escapeForPrompt(file.path)} (mcpServers)\n`);
      return EXIT.ok;
    }
    const checked = await checkMcpServers(servers, host, workspace);
    const lines = checked.servers.map((server) => {
      const head = `${server.name}  ${server.transport}`;
      if (server.state === "failed") return `${head}  failed: ${server.reason ?? "unknown"}`;
      const tools = server.tools
        .map(({ tool, effect }) => `${tool}${effect === "read" ? " (read-only)" : ""}`)
        .join(", ");
      const allowed = server.allow.length === 0 ? "none" : server.allow.join(", ");
      return `${head}  ready  ${toolCount(server.tools.length)}: ${tools === "" ? "none" : tools} · chapter 4 may ask for: ${allowed}`;
    });
    const all = [
      ...lines,
      ...checked.notes
        .filter((note) => !note.includes("is unavailable"))
        .map((note) => `note: ${note}`),
    ];
    io.stdout.write(`${all.map((line) => escapeForPrompt(line)).join("\n")}\n`);
    return EXIT.ok;
  });
}
