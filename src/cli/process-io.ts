import { fstatSync } from "node:fs";
import type { CliIo } from "./main.js";
import { sttyEcho } from "./terminal/input/terminal-echo.js";

/** The real process as the CLI sees it: its terminal, environment and Ctrl-C. */
export function processIo(argv: readonly string[]): CliIo {
  const echo = sttyEcho(process.stdin, process.platform, process);
  return {
    argv,
    env: process.env,
    cwd: process.cwd(),
    platform: process.platform,
    stdin: process.stdin,
    stdinPiped: isPipedByShell(0),
    stdout: process.stdout,
    stderr: process.stderr,
    interrupts: process,
    ...(echo === undefined ? {} : { echo }),
  };
}

/**
 * A FIFO (`… | agent`) or a non-empty regular file (`agent … < notes.txt`). A socket is not: that
 * is how a program, not a person's shell, starts the agent (Node's `spawn`, an editor).
 */
function isPipedByShell(fd: number): boolean {
  try {
    const stats = fstatSync(fd);
    return stats.isFIFO() || (stats.isFile() && stats.size > 0);
  } catch {
    return false;
  }
}
