/**
 * `agent [options] "<task>"`: a run, or with no task on a terminal a conversation. Its settings
 * are decided in one place (resolve-settings.ts) before anything else reads them.
 */
import { sayAgent } from "../terminal/render/agent-line.js";
import { firstLineOfError } from "../../core/common/one-line.js";
import { HELP_TEXT } from "../args.js";
import type { CliIo } from "../cli-io.js";
import { CliConfigError } from "../config-error.js";
import { EXIT } from "../exit-codes.js";
import { packageVersion } from "../package-version.js";
import { resolveSettings, type RunSettings } from "../settings/resolve-settings.js";
import { SUBCOMMAND_NAMES } from "./index.js";
import { lookalikeCommand, lookalikeMessage, positionalTask } from "./lookalike.js";
import { runAgent } from "./run.js";
import { PIPED_NOT_READ, isInteractive } from "../modes/run-terminal.js";

export async function runCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const fail = (code: number, message: string): number => {
    sayAgent(io.stderr, message);
    return code;
  };
  let settings: RunSettings;
  try {
    settings = resolveSettings(argv, io);
  } catch (error) {
    // A broken settings file names its file and field; a bad flag or variable points at --help.
    const message = firstLineOfError(error);
    return fail(EXIT.config, error instanceof CliConfigError ? `${message} (see --help)` : message);
  }
  const { options } = settings;
  if (options.help) {
    io.stdout.write(`${HELP_TEXT}\n`);
    return EXIT.ok;
  }
  if (options.version) {
    io.stdout.write(`${packageVersion()}\n`);
    return EXIT.ok;
  }
  // `agent resme`: a typo of a subcommand is not sent to the model as a task.
  const word = positionalTask(argv, options.prompt);
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
      io.stdinPiped === true
        ? `no task given: agent "<task>" or agent --prompt "<task>" (see --help); ${PIPED_NOT_READ}`
        : `no task given: agent "<task>" or agent --prompt "<task>" (see --help)`,
    );
  }
  return runAgent(options, { ...io, env: settings.env }, undefined, settings.file.mcpServers);
}
