/**
 * Where stdio MCP servers start: the person's home directory, or the filesystem's root when the
 * workspace is the home or holds it; never the workspace or a folder inside it.
 */
import { realpathSync } from "node:fs";
import { mkdir, symlink } from "node:fs/promises";
import { join, parse } from "node:path";
import { describe, expect, it } from "vitest";
import { mcpStdioPlace } from "../../src/bootstrap/mcp-stdio-place.js";
import { scratchDirectories } from "../support/scratch-directories.js";

const scratch = scratchDirectories("mcp-place-");

describe.skipIf(process.platform === "win32")("mcpStdioPlace", () => {
  it("starts servers in the home directory (its real path) when the workspace lies below it or elsewhere", async () => {
    const root = realpathSync(scratch());
    const home = join(root, "home");
    const ws = join(home, "projects", "app");
    await mkdir(ws, { recursive: true });
    await symlink(home, join(root, "home-link"));
    const host = { env: { HOME: join(root, "home-link") }, platform: process.platform };
    expect(mcpStdioPlace(ws, host)).toEqual({
      workspace: ws,
      startDirectory: home,
      platform: process.platform,
    });
    expect(mcpStdioPlace(join(root, "elsewhere"), host).startDirectory).toBe(home);
  });

  it("falls back to the filesystem's root when the workspace is the home, holds it, or there is no home", async () => {
    const root = realpathSync(scratch());
    const home = join(root, "home");
    await mkdir(home);
    const fsRoot = parse(root).root;
    expect(
      [
        mcpStdioPlace(home, { env: { HOME: home }, platform: process.platform }),
        mcpStdioPlace(root, { env: { HOME: home }, platform: process.platform }),
        mcpStdioPlace(home, {
          env: { HOME: join(root, "no-such-home") },
          platform: process.platform,
        }),
      ].map((place) => place.startDirectory),
    ).toEqual([fsRoot, fsRoot, fsRoot]);
  });
});
