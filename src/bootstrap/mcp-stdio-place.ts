/**
 * Where the person's stdio MCP servers start: their home directory, or the filesystem's root when
 * the workspace is the home or holds it. Never the workspace or a folder inside it, since that
 * folder decides what a server's command runs (npx prefers its `node_modules/.bin`, `python -m`
 * its modules); a folder above the workspace is safe, because those programs look up from where
 * they start, not down. The adapter refuses a stdio server when even the root is inside the
 * workspace (a run in `/`).
 */
import { realpathSync } from "node:fs";
import path from "node:path";
import { isWithinRoot } from "../adapters/filesystem/index.js";
import type { StdioPlace } from "../adapters/mcp/index.js";
import type { Host } from "./host.js";
import { hostHome } from "./host-files.js";

/** `workspace` is a real path. */
export function mcpStdioPlace(workspace: string, host: Host): StdioPlace {
  const paths = host.platform === "win32" ? path.win32 : path.posix;
  const home = realHome(host);
  const outside =
    home !== undefined && paths.isAbsolute(home) && !isWithinRoot(workspace, home, host.platform);
  return {
    workspace,
    startDirectory: outside ? home : paths.parse(workspace).root,
    platform: host.platform,
  };
}

function realHome(host: Host): string | undefined {
  const named = hostHome(host);
  if (named === "") return undefined;
  try {
    return realpathSync.native(named);
  } catch {
    // No such folder: nothing to start in there.
    return undefined;
  }
}
