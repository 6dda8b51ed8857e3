/**
 * Issue 43: start-up is unchanged when no MCP server is configured. The built CLI
 * (`--profile daily`, the profile that lists MCP tools), spawn → its first request at a local
 * chat-completions server, with three settings files side by side: one without `mcpServers` (the
 * baseline: the run as it was before MCP, which reads no MCP field and starts nothing), one with
 * `mcpServers: {}` (no server configured), and one naming a Streamable HTTP server on 127.0.0.1
 * (the contrast: the SDK is loaded and the server is listed before the first request). Target:
 * no server ≤ 1.05× the baseline, median of per-round ratios.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ChatCompletionsServer, chatTextReply } from "../tests/support/chat-completions-server.js";
import { notesServer } from "../tests/support/mcp-notes-server.js";
import {
  BenchFailure,
  buildAgentBundle,
  roundRobin,
  runToExit,
  samplesOf,
  withTempDir,
  type Row,
  type SectionResult,
  type Variant,
} from "./measurement.js";
import { summarize } from "./stats.js";

const ROUNDS = 15;
const AGENT = fileURLToPath(new URL("../dist/agent.cjs", import.meta.url));
const TARGET = 1.05;
const ANSWER = "bench: done";

const SETTINGS = {
  baseline: { label: "settings without `mcpServers`", file: {} },
  none: { label: "`mcpServers: {}`", file: { mcpServers: {} } },
  server: { label: "one HTTP server", file: undefined },
} as const;
type Setting = keyof typeof SETTINGS;

export async function measureMcpStartup(): Promise<SectionResult> {
  await buildAgentBundle();
  const chat = await ChatCompletionsServer.start();
  const mcp = await startMcpServer();
  try {
    return await withTempDir("mcp", async (directory) => {
      const workspace = join(directory, "workspace");
      await mkdir(workspace);
      const homes = new Map<Setting, string>();
      for (const setting of Object.keys(SETTINGS) as Setting[]) {
        const home = join(directory, setting);
        await mkdir(join(home, "agent-harness"), { recursive: true });
        const file = SETTINGS[setting].file ?? { mcpServers: { notes: { url: mcp.url } } };
        await writeFile(join(home, "agent-harness", "settings.json"), JSON.stringify(file));
        homes.set(setting, home);
      }
      const variants: Variant[] = [...homes].map(([setting, home]) => ({
        name: setting,
        run: async () => firstRequestMs(chat, workspace, home, join(directory, "state")),
      }));
      await roundRobin(1, variants); // warm-up: the disk cache, the bundle's code cache
      const samples = await roundRobin(ROUNDS, variants);
      const baseline = samplesOf(samples, "baseline");
      const perRound = (setting: Setting): ReturnType<typeof summarize> =>
        summarize(
          samplesOf(samples, setting).map((ms, round) => ms / (baseline[round] ?? Number.NaN)),
        );
      const name = (setting: Setting): string =>
        `\`agent --profile daily\`, ${SETTINGS[setting].label}: spawn → first request`;
      const none = perRound("none");
      const server = perRound("server");
      const rows: Row[] = [
        {
          name: name("baseline"),
          unit: "ms",
          summary: summarize(baseline),
          note: "baseline: no MCP field read, nothing started (the run before MCP)",
        },
        {
          name: name("none"),
          unit: "ms",
          summary: summarize(samplesOf(samples, "none")),
          note: `${none.median.toFixed(2)}× the baseline (median of per-round ratios, ${none.min.toFixed(2)}×–${none.max.toFixed(2)}×)`,
          ratio: none,
          targets: [
            {
              goal: `≤ ${TARGET}× the baseline`,
              figure: `${none.median.toFixed(2)}×`,
              met: none.median <= TARGET,
            },
          ],
        },
        {
          name: name("server"),
          unit: "ms",
          summary: summarize(samplesOf(samples, "server")),
          note: `contrast: ${server.median.toFixed(2)}× the baseline (the SDK loaded, the server started and listed)`,
          ratio: server,
        },
      ];
      return {
        title: "MCP start-up",
        rows,
        notes: [
          "`--sandbox off`, stdin not a TTY; one warm-up round discarded. A run without servers " +
            "never loads the MCP SDK (dist/agent-mcp.cjs; tests/architecture/lazy-mcp-sdk.test.ts); " +
            "what MCP adds to it is its adapter's code in the bundle and one check.",
        ],
      };
    });
  } finally {
    await chat.close();
    await mcp.close();
  }
}

async function firstRequestMs(
  chat: ChatCompletionsServer,
  workspace: string,
  configHome: string,
  stateDir: string,
): Promise<number> {
  let arrivedAt = Number.NaN;
  chat.enqueue(() => {
    arrivedAt = performance.now();
    return chatTextReply(ANSWER);
  });
  const args = ["--profile", "daily", "--sandbox", "off", "--workspace", workspace, "Reply."];
  const start = performance.now();
  const { code, stdout, stderr } = await runToExit(process.execPath, [AGENT, ...args], {
    cwd: workspace,
    env: agentEnvironment(chat.baseURL, configHome, stateDir),
  });
  if (code !== 0 || Number.isNaN(arrivedAt) || !stdout.includes(ANSWER)) {
    throw new BenchFailure(`agent exited ${String(code)}: ${stderr.slice(0, 2000)}`);
  }
  return arrivedAt - start;
}

/** The test notes server over Streamable HTTP (stateless, one MCP server per request). */
async function startMcpServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const http: Server = createServer((request, response) => {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on("close", () => void transport.close());
    void notesServer({})
      .connect(transport)
      .then(() => transport.handleRequest(request, response));
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    close: () =>
      new Promise((resolve) => {
        http.close(() => {
          resolve();
        });
      }),
  };
}

/**
 * This process's environment minus anything that could change the agent's run, and without
 * NODE_EXTRA_CA_CERTS (its ~50 ms would hide the ratio), with its own settings and state.
 */
function agentEnvironment(
  baseURL: string,
  configHome: string,
  stateDir: string,
): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || name.startsWith("OPENAI_") || name.startsWith("AGENT_")) continue;
    if (name === "NODE_EXTRA_CA_CERTS" || name === "XDG_CONFIG_HOME") continue;
    environment[name] = value;
  }
  return {
    ...environment,
    OPENAI_API_KEY: "dummy",
    OPENAI_BASE_URL: baseURL,
    NO_COLOR: "1",
    XDG_CONFIG_HOME: configHome,
    AGENT_STATE_DIR: stateDir,
  };
}
