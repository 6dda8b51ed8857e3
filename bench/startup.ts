/**
 * Issue 6 §5: start-up, from spawning the process to the first HTTP request reaching a local
 * chat-completions server (which answers with a final text, so each run ends by itself). `dist` is
 * built fresh first so the compiled CLI is never a stale one.
 */
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { ChatCompletionsServer, chatTextReply } from "../tests/support/chat-completions-server.js";
import {
  BenchFailure,
  ratio,
  roundRobin,
  runToExit,
  samplesOf,
  withTempDir,
  type SectionResult,
  type Variant,
} from "./measurement.js";
import { summarize } from "./stats.js";
import { formatNumber } from "./table.js";

const ROUNDS = 5;
const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST_CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const ANSWER = "bench: done";

interface Launch {
  readonly name: string;
  readonly executable: string;
  readonly args: readonly string[];
  /** A floor that sends no request: its figure is spawn → exit. */
  readonly expectsRequest: boolean;
}

export async function measureStartup(): Promise<SectionResult> {
  await buildDist();
  const server = await ChatCompletionsServer.start();
  try {
    return await withTempDir("startup", async (workspace) => {
      const agentArgs = ["--prompt", "Reply with one word.", "--workspace", workspace];
      const launches: readonly Launch[] = [
        {
          name: "node -e 0",
          executable: process.execPath,
          args: ["-e", "0"],
          expectsRequest: false,
        },
        {
          name: "node: fetch() the server",
          executable: process.execPath,
          args: [
            "--input-type=module",
            "-e",
            `await fetch(${JSON.stringify(`${server.baseURL}/chat/completions`)}, ` +
              `{ method: "POST", body: "{}" }).then((r) => r.text())`,
          ],
          expectsRequest: true,
        },
        {
          name: "node dist/cli.js",
          executable: process.execPath,
          args: [DIST_CLI, ...agentArgs],
          expectsRequest: true,
        },
        {
          name: "npm run agent (tsx)",
          ...npmCommand(["run", "agent", "--", ...agentArgs]),
          expectsRequest: true,
        },
      ];
      const totals = new Map<string, number[]>();
      const variants: Variant[] = launches.map((launch) => ({
        name: launch.name,
        run: async () => {
          const timing = await launchOnce(launch, server);
          const own = totals.get(launch.name) ?? [];
          own.push(timing.exitMs);
          totals.set(launch.name, own);
          return timing.firstRequestMs;
        },
      }));
      await roundRobin(1, variants); // warm-up: disk cache, tsx's transform cache
      totals.clear();
      const samples = await roundRobin(ROUNDS, variants);

      const medianOf = (name: string): number => summarize(samplesOf(samples, name)).median;
      const floor = medianOf("node -e 0");
      const dist = medianOf("node dist/cli.js");
      const exitMedian = (name: string): string =>
        `${formatNumber(summarize(samplesOf(totals, name)).median)} ms`;
      const notes: Record<string, string> = {
        "node -e 0": "floor: spawn → exit (no request)",
        "node: fetch() the server": `floor for an HTTP request; +${formatNumber(medianOf("node: fetch() the server") - floor)} ms over node -e 0`,
        "node dist/cli.js": `${ratio(dist, floor)} node -e 0; run ends ${exitMedian("node dist/cli.js")} after spawn`,
        "npm run agent (tsx)": `${ratio(medianOf("npm run agent (tsx)"), dist)} dist; run ends ${exitMedian("npm run agent (tsx)")} after spawn`,
      };
      return {
        title: "Start-up",
        rows: launches.map((launch) => ({
          name: `\`${launch.name}\`: spawn → ${launch.expectsRequest ? "first request" : "exit"}`,
          unit: "ms" as const,
          summary: summarize(samplesOf(samples, launch.name)),
          note: notes[launch.name] ?? "",
        })),
        notes: [
          "first request = the chat-completions request arriving at a local server on 127.0.0.1 " +
            "(OPENAI_API_KEY=dummy, stdin not a TTY, chapter 3 defaults); one warm-up round discarded.",
        ],
      };
    });
  } finally {
    await server.close();
  }
}

async function launchOnce(
  launch: Launch,
  server: ChatCompletionsServer,
): Promise<{ firstRequestMs: number; exitMs: number }> {
  let arrivedAt = Number.NaN;
  if (launch.expectsRequest) {
    server.enqueue(() => {
      arrivedAt = performance.now();
      return chatTextReply(ANSWER);
    });
  }
  const start = performance.now();
  const { code, stdout, stderr } = await runToExit(launch.executable, launch.args, {
    cwd: REPO_ROOT,
    env: agentEnvironment(server.baseURL),
  });
  const exitMs = performance.now() - start;
  if (code !== 0) {
    throw new BenchFailure(`${launch.name} exited ${String(code)}: ${stderr.slice(0, 2000)}`);
  }
  if (!launch.expectsRequest) return { firstRequestMs: exitMs, exitMs };
  if (Number.isNaN(arrivedAt)) throw new BenchFailure(`${launch.name} never reached the server`);
  if (launch.name !== "node: fetch() the server" && !stdout.includes(ANSWER)) {
    throw new BenchFailure(`${launch.name} did not print the answer: ${stdout.slice(0, 2000)}`);
  }
  return { firstRequestMs: arrivedAt - start, exitMs };
}

/** This process's environment minus anything that could change the agent's run. */
function agentEnvironment(baseURL: string): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || name.startsWith("OPENAI_") || name.startsWith("AGENT_")) continue;
    environment[name] = value;
  }
  return { ...environment, OPENAI_API_KEY: "dummy", OPENAI_BASE_URL: baseURL, NO_COLOR: "1" };
}

/** npm's own CLI script when we run under npm (no extra shell hop), else `npm` from PATH. */
function npmCommand(args: readonly string[]): { executable: string; args: readonly string[] } {
  const npmScript = process.env.npm_execpath;
  return npmScript?.endsWith(".js") === true
    ? { executable: process.execPath, args: [npmScript, ...args] }
    : { executable: "npm", args };
}

async function buildDist(): Promise<void> {
  const { executable, args } = npmCommand(["run", "build"]);
  const { code, stdout, stderr } = await runToExit(executable, args, { cwd: REPO_ROOT });
  if (code !== 0) throw new BenchFailure(`npm run build failed:\n${stdout}${stderr}`);
}
