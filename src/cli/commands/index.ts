/**
 * `agent <word> …`: commands that manage runs rather than start one (`agent runs`, `agent
 * approve …`). A known word first on the command line names one; anything else is a task. A task
 * that is exactly one of these words is still possible with `--prompt`.
 */
import { approvalsCommand } from "./approvals.js";
import { HELP_TEXT } from "../args.js";
import { approveCommand, denyCommand } from "./approve.js";
import type { CliIo } from "../cli-io.js";
import { commandsCommand } from "./commands.js";
import { CONFIG_HELP, configCommand } from "./config.js";
import { EXIT } from "../exit-codes.js";
import { explainCommand } from "./explain.js";
import { mcpCommand } from "./mcp.js";
import { resumeCommand } from "./resume.js";
import { RUNS_HELP, runsCommand } from "./runs.js";
import { SUBCOMMAND_HELP } from "./subcommand-help.js";
import { UNDO_HELP, undoCommand } from "./undo.js";

/** Runs one subcommand with the arguments after its name; returns the exit code, never throws. */
export type SubcommandHandler = (args: readonly string[], io: CliIo) => number | Promise<number>;

const SUBCOMMANDS: ReadonlyMap<string, SubcommandHandler> = new Map<string, SubcommandHandler>([
  ["approvals", approvalsCommand],
  ["approve", approveCommand],
  ["deny", denyCommand],
  ["commands", commandsCommand],
  ["config", configCommand],
  ["explain", explainCommand],
  ["mcp", mcpCommand],
  ["runs", runsCommand],
  ["resume", resumeCommand],
  ["undo", undoCommand],
]);

/** Every subcommand's name, for "did you mean" (lookalike.ts). */
export const SUBCOMMAND_NAMES: readonly string[] = [...SUBCOMMANDS.keys()];

export interface FoundSubcommand {
  readonly run: SubcommandHandler;
  readonly args: readonly string[];
  /** `agent runs --help`: the command only prints its help. */
  readonly printsHelp: boolean;
}

export function findSubcommand(argv: readonly string[]): FoundSubcommand | undefined {
  const [first, ...rest] = argv;
  if (first === undefined) return undefined;
  const run = SUBCOMMANDS.get(first);
  if (run === undefined) return undefined;
  if (!asksForHelp(rest)) return { run, args: rest, printsHelp: false };
  return { run: printHelp(OWN_HELP.get(first) ?? HELP_TEXT), args: rest, printsHelp: true };
}

/** A command whose options need more than the usage's one line has its own help text. */
const OWN_HELP: ReadonlyMap<string, string> = new Map([
  ["runs", RUNS_HELP],
  ["config", CONFIG_HELP],
  ["undo", UNDO_HELP],
  ...SUBCOMMAND_HELP,
]);

/** `agent explain --help`: the command's own usage (subcommand-help.ts). */
function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf("--");
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === "--help" || arg === "-h");
}

function printHelp(text: string): SubcommandHandler {
  return (_args, io) => {
    io.stdout.write(`${text}\n`);
    return Promise.resolve(EXIT.ok);
  };
}
