/**
 * Spawns the built CLI as a person's shell would, with a small, explicit environment (never the
 * developer's own OPENAI_* variables).
 */
import { join } from "node:path";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { fileURLToPath } from "node:url";

export const CLI_PATH = fileURLToPath(new URL("../../dist/agent.cjs", import.meta.url));
export const API_KEY = "sk-e2e-SECRET-7f3a9c";

/** Variables a process needs to start at all on each OS; nothing that configures the agent. */
const PASSED_THROUGH = [
  "PATH",
  "HOME",
  "TMPDIR",
  // Windows: finding executables and the profile directory.
  "Path",
  "PATHEXT",
  "SystemRoot",
  "SystemDrive",
  "WINDIR",
  "ComSpec",
  "USERPROFILE",
  "TEMP",
  "TMP",
];

export type Env = Record<string, string>;

/** The state directory global-setup.ts made for this test run (run journals). */
export function testStateDirectory(): string {
  const state = process.env.AGENT_E2E_STATE_DIR;
  if (state === undefined) throw new Error("tests/e2e/global-setup.ts did not run");
  return state;
}

/**
 * The base environment of every run: no key, no base URL, no colour, English prompts, and run
 * journals and temp files in the test process's own state directory.
 */
export function baseEnv(extra: Env = {}): Env {
  const env: Env = {};
  for (const name of PASSED_THROUGH) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return {
    ...env,
    NO_COLOR: "1",
    LANG: "C.UTF-8",
    TERM: "xterm-256color",
    AGENT_STATE_DIR: testStateDirectory(),
    // The person's own AGENTS.md (~/.config/agent-harness) must not reach a test's system prompt.
    XDG_CONFIG_HOME: join(testStateDirectory(), "no-personal-config"),
    // What a run leaves in the temp directory when a test kills it (the sandbox probe's
    // workspace, Linux only) goes with the state directory, not into the developer's /tmp.
    ...(process.platform === "linux" ? { TMPDIR: join(testStateDirectory(), "tmp") } : {}),
    ...extra,
  };
}

/** The environment for a run against the local server. */
export function serverEnv(baseURL: string, extra: Env = {}): Env {
  return baseEnv({ OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: baseURL, ...extra });
}

export interface CliRun {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliStart {
  readonly env: Env;
  readonly cwd?: string;
  /** Written to the CLI's stdin (a pipe, not a TTY), which is then closed. Default: nothing. */
  readonly input?: string;
  /** Leave stdin open (after `input`) until the CLI exits, to prove it does not wait for it. */
  readonly keepStdinOpen?: boolean;
}

export interface RunningCli {
  readonly child: ChildProcessWithoutNullStreams;
  readonly done: Promise<CliRun>;
}

/** Starts `node dist/agent.cjs ARGS` with piped stdio; stdout and stderr are kept apart. */
export function startCli(args: readonly string[], options: CliStart): RunningCli {
  const child = spawn(process.execPath, [CLI_PATH, ...args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdin.on("error", () => undefined);
  if (options.keepStdinOpen === true) child.stdin.write(options.input ?? "");
  else child.stdin.end(options.input ?? "");
  const done = new Promise<CliRun>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (exitCode, signal) => {
      resolve({ exitCode, signal, stdout, stderr });
    });
  });
  return { child, done };
}

export function runCli(args: readonly string[], options: CliStart): Promise<CliRun> {
  return startCli(args, options).done;
}

/** stderr as lines, without the empty string after the final newline. */
export function linesOf(text: string): string[] {
  const lines = text.replaceAll("\r\n", "\n").split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/**
 * stderr as lines, without the `agent: warning: …` line a Linux machine without a working
 * bubblewrap prints when the shell falls back to running unsandboxed.
 */
export function stderrLines(run: CliRun): string[] {
  return linesOf(run.stderr).filter((line) => !line.startsWith("agent: warning: "));
}
