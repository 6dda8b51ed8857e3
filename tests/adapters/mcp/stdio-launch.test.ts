/**
 * A stdio server starts on the host with nobody asked: nothing the workspace holds may decide its
 * program, the folder it starts in or the PATH it hands on. Refused servers are never started: the
 * planted program would leave a marker file.
 */
import { existsSync, realpathSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startMcpServers, type StartedMcpServers } from "../../../src/adapters/mcp/index.js";
import { stdioLaunch, type StdioPlace } from "../../../src/adapters/mcp/stdio-launch.js";
import { ToolRegistry } from "../../../src/core/tools/tool-registry.js";
import { PLACE_SERVER_COMMAND, type ServerPlace } from "../../support/mcp-place-server.js";
import { scratchDirectories } from "../../support/scratch-directories.js";

const scratch = scratchDirectories("mcp-launch-");
const opened: StartedMcpServers[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((servers) => servers.close()));
});

describe.skipIf(process.platform === "win32")("stdio servers and the workspace", () => {
  let root: string;
  let ws: string;
  let place: StdioPlace;
  let marker: string;
  let trusted: string;

  beforeEach(async () => {
    root = realpathSync(scratch());
    ws = join(root, "ws");
    trusted = join(root, "trusted");
    marker = join(root, "planted-program-ran");
    await mkdir(join(ws, "node_modules", ".bin"), { recursive: true });
    await mkdir(join(root, "home"));
    await mkdir(trusted);
    for (const planted of [join(ws, "node_modules", ".bin", "tracker"), join(ws, "tracker")]) {
      await writeFile(planted, `#!/bin/sh\necho ran >> ${marker}\nexit 1\n`);
      await chmod(planted, 0o755);
    }
    await writeFile(join(trusted, "tool"), "#!/bin/sh\nexit 0\n");
    await chmod(join(trusted, "tool"), 0o755);
    place = { workspace: ws, startDirectory: join(root, "home"), platform: "linux" };
  });

  const wsBin = (): string => join(ws, "node_modules", ".bin");

  it("refuses, with the reason, a command the workspace decides and a start inside it", () => {
    const hostEnv = { PATH: [wsBin(), "", ".", "node_modules/.bin", trusted].join(":") };
    const refusal = (command: string, over: Partial<StdioPlace> = {}, env = {}): string => {
      try {
        stdioLaunch({ command }, env, hostEnv, { ...place, ...over });
        return "started";
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect([
      refusal("tool", { startDirectory: join(ws, "sub") }),
      refusal("tool", { startDirectory: ws }),
      refusal("./tracker"),
      refusal("node_modules/.bin/tracker"),
      refusal(join(ws, "tracker")),
      refusal("tracker"),
      refusal("tracker", {}, { PATH: wsBin() }),
      refusal(join(root, "gone")),
    ]).toEqual([
      `it would start in ${join(ws, "sub")}, inside the workspace, whose files would then decide what runs on the host`,
      `it would start in ${ws}, inside the workspace, whose files would then decide what runs on the host`,
      'its command "./tracker" is a relative path, which would name a file in whatever folder it starts in; name the program by its absolute path, or by a name on PATH',
      'its command "node_modules/.bin/tracker" is a relative path, which would name a file in whatever folder it starts in; name the program by its absolute path, or by a name on PATH',
      `its command "${join(ws, "tracker")}" is inside the workspace, whose files would then decide what runs on the host; name a program outside the workspace`,
      'its command "tracker" is not on PATH outside the workspace (a relative, empty or workspace PATH entry is never searched)',
      'its command "tracker" is not on PATH outside the workspace (a relative, empty or workspace PATH entry is never searched)',
      `its command "${join(root, "gone")}" is not an executable file`,
    ]);
  });

  it("starts the program found outside the workspace, in the start directory, with a clean PATH and the workspace as data", () => {
    const hostEnv = { PATH: `${wsBin()}:.:${trusted}`, SECRET_OF_HOST: "x" };
    const launch = stdioLaunch(
      { command: "tool", args: ["--flag"] },
      { TOKEN: "t", AGENT_WORKSPACE: "/elsewhere" },
      hostEnv,
      place,
    );
    expect(launch).toEqual({
      command: join(trusted, "tool"),
      args: ["--flag"],
      env: { TOKEN: "t", PATH: trusted, AGENT_WORKSPACE: ws },
      cwd: join(root, "home"),
    });
    // The server's own PATH is cleaned the same way.
    expect(
      stdioLaunch({ command: "tool" }, { PATH: `${wsBin()}:${trusted}` }, {}, place).env,
    ).toEqual({ PATH: trusted, AGENT_WORKSPACE: ws });
  });

  it("a refused server is one line naming it, and is never started", async () => {
    const started = await startMcpServers(
      {
        tracker: { command: "tracker" },
        local: { command: "./tracker" },
        pinned: { command: join(wsBin(), "tracker") },
      },
      { hostEnv: { PATH: `${wsBin()}:.` }, stdio: { ...place, startDirectory: ws } },
    );
    opened.push(started);
    expect(started.notes).toEqual(
      ["tracker", "local", "pinned"].map(
        (name) =>
          `MCP server "${name}" is unavailable (it would start in ${ws}, inside the workspace, whose files would then decide what runs on the host); its tools are not offered in this run`,
      ),
    );
    const elsewhere = await startMcpServers(
      { tracker: { command: "tracker" }, pinned: { command: join(wsBin(), "tracker") } },
      { hostEnv: { PATH: `${wsBin()}:.` }, stdio: place },
    );
    opened.push(elsewhere);
    expect(elsewhere.notes).toEqual([
      'MCP server "tracker" is unavailable (its command "tracker" is not on PATH outside the workspace (a relative, empty or workspace PATH entry is never searched)); its tools are not offered in this run',
      `MCP server "pinned" is unavailable (its command "${join(wsBin(), "tracker")}" is inside the workspace, whose files would then decide what runs on the host; name a program outside the workspace); its tools are not offered in this run`,
    ]);
    expect(existsSync(marker)).toBe(false);
  });

  it("a started server runs in the start directory and is told the workspace: AGENT_WORKSPACE and its one root", async () => {
    const hostEnv = { PATH: `${wsBin()}:.:${trusted}` };
    const started = await startMcpServers(
      { place: PLACE_SERVER_COMMAND },
      { hostEnv, stdio: place },
    );
    opened.push(started);
    const tool = started.tools.find((listed) => listed.definition.name === "mcp__place__where");
    if (tool === undefined) throw new Error(started.notes.join("\n"));
    const prepared = new ToolRegistry([tool.definition])
      .snapshot()
      .prepare({ id: "call_1", name: "mcp__place__where", arguments: "{}" });
    if (!prepared.ok) throw new Error(prepared.result.content);
    const result = await prepared.call.execute({});
    expect(JSON.parse(result.content) as ServerPlace).toEqual({
      cwd: join(root, "home"),
      workspace: ws,
      path: trusted,
      roots: [{ uri: pathToFileURL(ws).href, name: "workspace" }],
    });
  });
});
