/**
 * What a closed stdout or stderr (`agent runs 2>&1 | head -1`) ends: a command that only prints
 * goes on to its own exit code; a run stops, because its approval prompt is on stderr and nobody
 * would see it.
 */
import { parseCliArgs } from "./args.js";
import { findSubcommand } from "./commands/index.js";

/** 128 + SIGPIPE: what a shell reports for a command a closed pipe ended (`yes | head -1`). */
export const EXIT_OUTPUT_CLOSED = 141;

/** Subcommands that read and print, and change nothing. */
const PRINT_ONLY = new Set(["runs", "approvals", "commands", "explain"]);

/** Whether `argv` starts (or resumes, or answers) a run rather than only printing. */
export function stopsWhenStderrCloses(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): boolean {
  const subcommand = findSubcommand(argv);
  if (subcommand !== undefined) return !PRINT_ONLY.has(argv[0] ?? "") && !subcommand.printsHelp;
  try {
    const options = parseCliArgs(argv, env, cwd);
    return !options.help && !options.version;
  } catch {
    return false; // A mistake on the command line: one line on stderr and exit 2, no run.
  }
}

/** The errors a write to a pipe nobody reads any more ends with. */
export function isClosedOutput(error: NodeJS.ErrnoException): boolean {
  return error.code === "EPIPE" || error.code === "ERR_STREAM_DESTROYED";
}
