/** Running npm and other programs from the end-to-end tests, outside the agent's CLI. */
import { spawn } from "node:child_process";
import type { CliRun, Env } from "./cli-process.js";

/** npm's own CLI script when the tests run under npm (or npx), else `npm` from PATH. */
export function npm(args: readonly string[]): { command: string; args: string[] } {
  const script = process.env.npm_execpath;
  return script !== undefined && /\.[cm]?js$/.test(script)
    ? { command: process.execPath, args: [script, ...args] }
    : { command: "npm", args: [...args] };
}

/** `command ARGS` in `cwd` with exactly `env`: how it ended and what it printed. */
export function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Env,
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("error", reject);
    child.once("close", (exitCode, signal) => {
      resolve({ exitCode, signal, stdout, stderr });
    });
  });
}
