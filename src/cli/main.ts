/** The command line: argv to one command (a subcommand, or a run), and its exit code. */
import { readFileSync } from "node:fs";
import { firstLineOfError } from "../core/common/one-line.js";
import { HELP_TEXT, parseCliArgs, type CliOptions } from "./args.js";
import type { CliIo } from "./cli-io.js";
import { findSubcommand, SUBCOMMAND_NAMES } from "./commands/index.js";
import { lookalikeCommand, lookalikeMessage, positionalTask } from "./commands/lookalike.js";
import { isInteractive, runAgent } from "./commands/run.js";
import { EXIT } from "./exit-codes.js";
import { escapeForPrompt } from "./terminal/terminal-text.js";
import { personSettings, withFileSettings } from "./settings/settings-layers.js";

export type { CliIo } from "./cli-io.js";

/** Runs the agent once and returns the process exit code; it never throws. */
export async function runCli(io: CliIo): Promise<number> {
  const fail = (code: number, message: string): number => {
    io.stderr.write(`agent: ${escapeForPrompt(message)}\n`);
    return code;
  };
  const subcommand = findSubcommand(io.argv);
  if (subcommand !== undefined) return subcommand.run(subcommand.args, io);
  // Issue 27: the settings file is the layer under flags and the environment.
  let layered: { argv: string[]; env: CliIo["env"] };
  try {
    layered = withFileSettings(io.argv, io.env, personSettings(io).values);
  } catch (error) {
    return fail(EXIT.config, firstLineOfError(error));
  }
  let options: CliOptions;
  try {
    options = parseCliArgs(layered.argv, layered.env, io.cwd);
  } catch (error) {
    return fail(EXIT.config, `${firstLineOfError(error)} (see --help)`);
  }
  if (options.help) {
    io.stdout.write(`${HELP_TEXT}\n`);
    return EXIT.ok;
  }
  if (options.version) {
    io.stdout.write(`${packageVersion()}\n`);
    return EXIT.ok;
  }
  // `agent resme`: a typo of a subcommand is not sent to the model as a task.
  const word = positionalTask(io.argv, options.prompt);
  const meant = word === undefined ? undefined : lookalikeCommand(word, SUBCOMMAND_NAMES);
  if (word !== undefined && meant !== undefined) {
    return fail(EXIT.config, lookalikeMessage(word, meant));
  }
  if (options.prompt === undefined && options.outputFormat !== "text") {
    return fail(
      EXIT.config,
      `--output-format ${options.outputFormat} needs a task: agent --output-format ${options.outputFormat} "<task>"`,
    );
  }
  // No task on a terminal: a conversation (conversation.ts). Piped, a task is still required.
  if (options.prompt === undefined && !isInteractive(io)) {
    return fail(
      EXIT.config,
      `no task given: agent "<task>" or agent --prompt "<task>" (see --help)`,
    );
  }
  return runAgent(options, { ...io, env: layered.env }, undefined);
}

const PACKAGE_NAME = "agent-harness";

/**
 * The version in our package.json: the nearest one above this file, which is src/cli/main.ts,
 * dist/cli/main.js or the bundle dist/agent.cjs, each at a different depth.
 */
function packageVersion(): string {
  for (let up = 1; up <= 3; up += 1) {
    let raw: unknown;
    try {
      const url = new URL(`${"../".repeat(up)}package.json`, import.meta.url);
      raw = JSON.parse(readFileSync(url, "utf8"));
    } catch {
      continue;
    }
    if (
      typeof raw === "object" &&
      raw !== null &&
      "name" in raw &&
      raw.name === PACKAGE_NAME &&
      "version" in raw &&
      typeof raw.version === "string"
    ) {
      return raw.version;
    }
  }
  return "unknown";
}
