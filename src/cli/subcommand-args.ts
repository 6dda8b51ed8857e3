import { sayAgent } from "./terminal/render/agent-line.js";
import { parseArgs } from "node:util";
import { firstLineOfError } from "../core/common/one-line.js";
import type { CliIo } from "./cli-io.js";
import { CliConfigError } from "./config-error.js";
import { EXIT } from "./exit-codes.js";

/**
 * The flags every approvals subcommand takes; `extra` adds a command's own, and `takes` what a
 * flag's value looks like, said when the value is missing or reads as a flag (`--ttl -5m`).
 */
export function parseSubcommandArgs(
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
    const line = firstLineOfError(error).replace(/\.$/, "");
    const flag = /'--([a-z-]+)/.exec(line)?.[1];
    const value = flag === undefined ? undefined : takes[flag];
    throw new CliConfigError(value === undefined ? line : `${line}: --${flag} takes ${value}`);
  }
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
