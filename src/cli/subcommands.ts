/**
 * `agent <word> …`: commands that manage runs rather than start one (`agent runs`, `agent
 * approve …`). A known word first on the command line names one; anything else is a task. A task
 * that is exactly one of these words is still possible with `--prompt`.
 */
import { approvalsCommand } from "./approvals-command.js";
import { HELP_TEXT } from "./args.js";
import { approveCommand, denyCommand } from "./approve-command.js";
import type { CliIo } from "./cli-io.js";
import { commandsCommand } from "./commands-command.js";
import { EXIT } from "./exit-codes.js";
import { explainCommand } from "./explain-command.js";
import { resumeCommand } from "./resume-command.js";
import { runsCommand } from "./runs-command.js";

/** Runs one subcommand with the arguments after its name; returns the exit code, never throws. */
export type SubcommandHandler = (args: readonly string[], io: CliIo) => Promise<number>;

const SUBCOMMANDS: ReadonlyMap<string, SubcommandHandler> = new Map<string, SubcommandHandler>([
  ["approvals", approvalsCommand],
  ["approve", approveCommand],
  ["deny", denyCommand],
  ["commands", commandsCommand],
  ["explain", explainCommand],
  ["runs", runsCommand],
  ["resume", resumeCommand],
]);

export function findSubcommand(
  argv: readonly string[],
): { readonly run: SubcommandHandler; readonly args: readonly string[] } | undefined {
  const [first, ...rest] = argv;
  if (first === undefined) return undefined;
  const run = SUBCOMMANDS.get(first);
  if (run === undefined) return undefined;
  return { run: asksForHelp(rest) ? printHelp : run, args: rest };
}

/** `agent runs --help`: the usage lists every command, so it answers for each of them. */
function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf("--");
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === "--help" || arg === "-h");
}

const printHelp: SubcommandHandler = (_args, io) => {
  io.stdout.write(`${HELP_TEXT}\n`);
  return Promise.resolve(EXIT.ok);
};
