/** The command line: argv to one command (a subcommand, or a run), and its exit code. */
import type { CliIo } from "./cli-io.js";
import { findSubcommand } from "./commands/index.js";
import { runCommand } from "./commands/run-command.js";
import { withoutRunWord } from "./run-word.js";

export type { CliIo } from "./cli-io.js";

/** Runs the agent once and returns the process exit code; it never throws. */
export async function runCli(given: CliIo): Promise<number> {
  const io: CliIo = { ...given, argv: withoutRunWord(given.argv) };
  const subcommand = findSubcommand(io.argv);
  if (subcommand !== undefined) return subcommand.run(subcommand.args, io);
  return runCommand(io.argv, io);
}
