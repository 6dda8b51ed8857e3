/**
 * A stdio MCP server runs on the host, outside the sandbox, before any call and with no prompt:
 * nothing in the workspace may decide which program or code it runs. The workspace here plants
 * what `npx` (./node_modules/.bin) and `python3 -m` (the current folder on sys.path) would pick
 * up were the server started in it; the person's HOME is the workspace's parent, as usual.
 */
import { chmod, mkdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatTextReply } from "../support/chat-completions-server.js";
import { hostExecutable } from "../support/host-executables.js";
import { useAgentFixture } from "./agent-fixture.js";

const e2e = useAgentFixture();

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

// Without them on PATH the marker stays absent whatever the harness does: nothing to prove.
const HAS_PROGRAMS = hostExecutable("npx") !== undefined && hostExecutable("python3") !== undefined;

describe.skipIf(process.platform === "win32" || !HAS_PROGRAMS)(
  "MCP servers and the workspace's programs",
  () => {
    it("a workspace file never decides which program an MCP server's command runs on the host", async () => {
      const ws = e2e.dir.workspace;
      const marker = join(e2e.dir.root, "host-ran-workspace-code");
      await writeFile(join(ws, "package.json"), '{"name":"x"}');
      await mkdir(join(ws, "node_modules", ".bin"), { recursive: true });
      const bin = join(ws, "node_modules", ".bin", "tracker-mcp");
      await writeFile(bin, `#!/bin/sh\necho npx >> ${marker}\nexit 1\n`);
      await chmod(bin, 0o755);
      await mkdir(join(ws, "mcp_notes"));
      await writeFile(
        join(ws, "mcp_notes", "__main__.py"),
        `open(${JSON.stringify(marker)}, "a").write("python\\n")\n`,
      );
      const config = join(e2e.dir.root, "config");
      await mkdir(join(config, "agent-harness"), { recursive: true });
      await writeFile(
        join(config, "agent-harness", "settings.json"),
        JSON.stringify({
          mcpServers: {
            // Offline: npx, started away from the workspace, must not fetch the package either.
            tracker: {
              command: "npx",
              args: ["-y", "tracker-mcp"],
              env: { npm_config_offline: "true" },
            },
            notes: { command: "python3", args: ["-m", "mcp_notes"] },
          },
        }),
      );
      e2e.server.script(chatTextReply("Hi."));
      const run = await e2e.agent(["--profile", "daily", "--sandbox", "off", "Hi"], {
        XDG_CONFIG_HOME: config,
        HOME: e2e.dir.root,
      });
      expect(await exists(marker)).toBe(false);
      // Both were tried, and neither is offered: nothing the workspace holds answered as a server.
      expect(run.stderr).toContain('MCP server "tracker" is unavailable (MCP error -32000: ');
      // python3 looked for the module where it started, away from the workspace, and found none.
      expect(run.stderr).toMatch(
        /MCP server "notes" is unavailable \(MCP error -32000: Connection closed \(stderr: \S*python3: No module named mcp_notes\)\)/u,
      );
    }, 60_000);
  },
);
