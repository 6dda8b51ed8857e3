/**
 * Issue 19: 1 GiB of shell output through the real CLI (`node dist/cli.js`, chapter 3, approved at
 * a real pseudo-terminal), not only through `runProcess`: the figure is the CLI process's own
 * resident memory, read from /proc while it runs the `shell` tool. Linux only (/proc, `script`).
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import {
  ChatCompletionsServer,
  chatTextReply,
  chatToolCallsReply,
} from "../tests/support/chat-completions-server.js";
import { PtySession } from "../tests/support/pty.js";
import { BenchFailure, collectOwnGarbage, runToExit } from "./measurement.js";

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST_CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const TSC = fileURLToPath(new URL("../node_modules/typescript/bin/tsc", import.meta.url));
const ANSWER = "bench: shell done";

export interface CliShellRun {
  /** From typing `y` to the tool result reaching the model server. */
  readonly ms: number;
  /** Peak resident memory of the CLI while the command ran, above its size just before. */
  readonly rssGrowthMiB: number;
}

/** `dist` fresh from the sources, so the CLI measured is this tree's. */
export async function buildDist(): Promise<void> {
  const { code, stdout, stderr } = await runToExit(
    process.execPath,
    [TSC, "-p", "tsconfig.build.json"],
    { cwd: REPO_ROOT },
  );
  if (code !== 0) throw new BenchFailure(`tsc -p tsconfig.build.json failed:\n${stdout}${stderr}`);
}

/** One CLI run whose model asks for `head -c <bytes> /dev/zero` once, then answers. */
export async function cliShellOnce(workspace: string, bytes: number): Promise<CliShellRun> {
  collectOwnGarbage();
  let baseline: ProcessMemory | undefined;
  let pid: number | undefined;
  let peak = 0;
  let resultAt = Number.NaN;
  const server = await ChatCompletionsServer.start([
    () => {
      pid = findCli(workspace);
      baseline = memoryOf(pid);
      peak = baseline.rss;
      return chatToolCallsReply([
        { id: "call_zero", name: "shell", arguments: { command: `head -c ${bytes} /dev/zero` } },
      ]);
    },
    () => {
      resultAt = performance.now();
      return chatTextReply(ANSWER);
    },
  ]);
  let sampler: NodeJS.Timeout | undefined;
  try {
    const session = PtySession.start(
      [
        process.execPath,
        DIST_CLI,
        "--prompt",
        "Print a lot of zeros.",
        "--workspace",
        workspace,
        // The figure is the CLI's own memory; bubblewrap would only add start-up time.
        "--sandbox",
        "off",
        "--shell",
        "posix",
        "--quiet",
      ],
      { env: agentEnvironment(server.baseURL), cwd: workspace, waitTimeoutMs: 120_000 },
    );
    await session.waitForOutput("[y/N] ");
    if (pid === undefined || baseline === undefined) {
      throw new BenchFailure("the CLI asked before its first request");
    }
    const cli = pid;
    sampler = setInterval(() => {
      const now = memoryOf(cli, true);
      if (now !== undefined) peak = Math.max(peak, now.rss);
    }, 2);
    const approvedAt = performance.now();
    session.type("y\r");
    await session.waitForOutput(ANSWER);
    const after = memoryOf(cli, true);
    clearInterval(sampler);
    const { exitCode, output } = await session.exited;
    if (exitCode !== 0 || Number.isNaN(resultAt)) {
      throw new BenchFailure(
        `the CLI run failed (exit ${String(exitCode)}): ${output.slice(-2000)}`,
      );
    }
    // The kernel's high-water mark counts only if it rose during the command (not at start-up).
    if (after !== undefined && after.highWater > baseline.highWater) {
      peak = Math.max(peak, after.highWater);
    }
    return { ms: resultAt - approvedAt, rssGrowthMiB: (peak - baseline.rss) / 2 ** 20 };
  } finally {
    clearInterval(sampler);
    await server.close();
  }
}

interface ProcessMemory {
  readonly rss: number;
  readonly highWater: number;
}

function memoryOf(pid: number): ProcessMemory;
function memoryOf(pid: number, mayBeGone: true): ProcessMemory | undefined;
function memoryOf(pid: number, mayBeGone = false): ProcessMemory | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch (error) {
    if (mayBeGone) return undefined;
    throw error;
  }
  const kib = (field: string): number => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, "mu").exec(status);
    if (match?.[1] === undefined) throw new BenchFailure(`no ${field} in /proc/${pid}/status`);
    return Number(match[1]) * 1024;
  };
  return { rss: kib("VmRSS"), highWater: kib("VmHWM") };
}

/** The node process running dist/cli.js for this workspace (under `script` and its shell). */
function findCli(workspace: string): number {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/u.test(entry)) continue;
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
    } catch {
      continue;
    }
    if (argv[0] === process.execPath && argv[1] === DIST_CLI && argv.includes(workspace)) {
      return Number(entry);
    }
  }
  throw new BenchFailure(`no CLI process found for ${workspace}`);
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
