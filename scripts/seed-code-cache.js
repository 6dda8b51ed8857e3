// @ts-check
/**
 * Seeds the code caches beside a fresh build (dist/agent-bundle.cache, dist/agent-zod.cache) with
 * one run of the built command, so that what they hold no longer depends on what the first run
 * after the build happened to do: a `--version` or a one-reply run left a cache without the tool
 * path, and every later run compiled that path again at its first call. The run is scripted and
 * local: a server on 127.0.0.1 asks for one `read_file` of a file in a temporary workspace and one
 * its schema refuses (zod's path), then answers. The sandbox is a run's default (`auto`), so its plan and probe are cached too; with
 * nothing remembered the probe checks bwrap in a temporary workspace, as any first run does, and
 * the read runs no command. A temporary home, configuration and state directory (the builder's
 * settings, instructions and MCP servers are never read), no OPENAI_ or AGENT_ variable of the
 * builder's. The launcher writes the caches at that run's exit, under its usual rules
 * (scripts/launcher.cjs). Any failure leaves the build as it was: the first run writes them.
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { clearTimeout, setTimeout } from "node:timers";
import path from "node:path";

/** Far more than a run takes; a seed that hangs must not hang the build. */
const TIMEOUT_MS = 30_000;
/** Locale variables pass through: a run without one asks ICU, and compiles that path. */
const KEPT = ["PATH", "LANG", "LC_ALL", "LC_MESSAGES", "SYSTEMROOT"];

/**
 * One scripted run of `launcher`; resolves to true when it exited 0.
 * @param {string} launcher dist/agent.cjs
 */
export async function seedCodeCache(launcher) {
  const root = await mkdtemp(path.join(tmpdir(), "agent-seed-"));
  const server = createServer((request, response) => {
    const first = !seen;
    seen = true;
    request.resume();
    request.once("end", () => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(first ? readReply() : textReply());
    });
  });
  let seen = false;
  try {
    const workspace = path.join(root, "workspace");
    await mkdir(workspace);
    await writeFile(path.join(workspace, "notes.txt"), "A line to read.\n");
    await new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => {
        resolve(undefined);
      });
    });
    const address = server.address();
    if (address === null || typeof address === "string") return false;
    /** @type {Record<string, string>} */
    const env = {};
    for (const name of KEPT) {
      const value = process.env[name];
      if (value !== undefined) env[name] = value;
    }
    Object.assign(env, {
      HOME: root,
      USERPROFILE: root,
      APPDATA: path.join(root, "config"),
      XDG_CONFIG_HOME: path.join(root, "config"),
      XDG_STATE_HOME: path.join(root, "state"),
      OPENAI_API_KEY: "seed",
      OPENAI_BASE_URL: `http://127.0.0.1:${String(address.port)}/v1`,
      NO_COLOR: "1",
    });
    const args = [
      launcher,
      ...["--workspace", workspace, "--state-dir", path.join(root, "state")],
      ...["--max-turns", "2", "Read notes.txt."],
    ];
    return await new Promise((resolve) => {
      const child = spawn(process.execPath, args, { cwd: workspace, env, stdio: "ignore" });
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
      }, TIMEOUT_MS);
      child.once("error", () => {
        clearTimeout(timer);
        resolve(false);
      });
      child.once("close", (code) => {
        clearTimeout(timer);
        resolve(code === 0);
      });
    });
  } catch {
    return false;
  } finally {
    server.closeAllConnections();
    server.close();
    await rm(root, { recursive: true, force: true });
  }
}

function readReply() {
  return completion({
    content: null,
    tool_calls: [
      {
        id: "call_seed",
        type: "function",
        function: { name: "read_file", arguments: '{"path":"notes.txt"}' },
      },
      // Refused by zod: a valid call no longer loads it (its arguments are vouched for without
      // it, src/core/common/vouch.ts), and zod's cache would otherwise wait for the first
      // refusal, settings file or MCP server.
      {
        id: "call_seed_refused",
        type: "function",
        function: { name: "read_file", arguments: '{"path":"notes.txt","offset":0}' },
      },
    ],
  });
}

function textReply() {
  return completion({ content: "Read." });
}

/** @param {Record<string, unknown>} message */
function completion(message) {
  return JSON.stringify({
    id: "seed",
    object: "chat.completion",
    created: 0,
    model: "seed",
    choices: [
      {
        index: 0,
        message: { role: "assistant", ...message },
        finish_reason: "tool_calls" in message ? "tool_calls" : "stop",
      },
    ],
  });
}
