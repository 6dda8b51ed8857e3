import { sayAgent } from "./terminal/render/agent-line.js";
import { parseArgs } from "node:util";
import { firstLineOfError } from "../core/common/one-line.js";
import type { CliIo } from "./cli-io.js";
import { CliConfigError } from "./config-error.js";
import { RUN_OPTIONS } from "./args.js";
import { EXIT } from "./exit-codes.js";
import { firstSentence } from "./parse-error-line.js";

/**
 * The flags every approvals subcommand takes; `extra` adds a command's own, and `takes` what a
 * flag's value looks like, said when the value is missing or reads as a flag (`--ttl -5m`).
 * `command` names the subcommand whose help an error points to.
 */
export function parseSubcommandArgs(
  command: string,
  args: readonly string[],
  extra: Record<string, { type: "string" }> = {},
  takes: Readonly<Record<string, string>> = {},
): { values: Record<string, string | undefined>; positionals: string[] } {
  try {
    const parsed = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: true,
      options: { workspace: { type: "string" }, "state-dir": { type: "string" }, ...extra },
    });
    return {
      values: parsed.values,
      positionals: parsed.positionals,
    };
  } catch (error) {
    throw new CliConfigError(subcommandParseError(command, error, takes));
  }
}

/**
 * A subcommand that takes some of the run's options (`agent explain`): those named, parsed as a
 * run parses them (args.ts), and handed back as flags for `resolveSettings`, beside the
 * positionals. Any other option is refused as an unknown one.
 */
export function parseRunOptionArgs(
  command: string,
  args: readonly string[],
  names: readonly (keyof typeof RUN_OPTIONS)[],
): { flags: string[]; positionals: string[] } {
  let tokens;
  try {
    tokens = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: true,
      tokens: true,
      options: Object.fromEntries(names.map((name) => [name, RUN_OPTIONS[name]])),
    }).tokens;
  } catch (error) {
    throw new CliConfigError(subcommandParseError(command, error));
  }
  const flags: string[] = [];
  const positionals: string[] = [];
  for (const token of tokens) {
    if (token.kind === "positional") positionals.push(token.value);
    // `--name=value`, so a value that starts with a dash reads as a value again.
    if (token.kind === "option") {
      flags.push(token.value === undefined ? token.rawName : `${token.rawName}=${token.value}`);
    }
  }
  return { flags, positionals };
}

/**
 * node's parse error as one clean sentence, what the flag's value looks like when `takes` says,
 * and the subcommand's own help: `Unknown option '--bogus' (see agent undo --help)`.
 */
export function subcommandParseError(
  command: string,
  error: unknown,
  takes: Readonly<Record<string, string>> = {},
): string {
  const line = firstSentence(firstLineOfError(error));
  const flag = /'--([a-z-]+)/.exec(line)?.[1];
  const value = flag === undefined ? undefined : takes[flag];
  const said = value === undefined ? line : `${line}: --${flag} takes ${value}`;
  return `${said} (see agent ${command} --help)`;
}

/** Runs a subcommand body; any error becomes one `agent: ` line and exit code 2. */
export async function guarded(io: CliIo, body: () => Promise<number> | number): Promise<number> {
  try {
    return await body();
  } catch (error) {
    sayAgent(io.stderr, firstLineOfError(error));
    return EXIT.config;
  }
}
