import type { CliIo } from "./main.js";

/** The real process as the CLI sees it: its terminal, environment and Ctrl-C. */
export function processIo(argv: readonly string[]): CliIo {
  return {
    argv,
    env: process.env,
    cwd: process.cwd(),
    platform: process.platform,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    interrupts: process,
  };
}
