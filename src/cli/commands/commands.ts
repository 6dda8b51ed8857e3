import { join } from "node:path";
import { loadCommandAllowlist, refusedNowNotes } from "../../bootstrap.js";
import type { CliIo } from "../cli-io.js";
import { defaultWorkspace } from "../args.js";
import { resolveWorkspace } from "../settings/workspace.js";
import { EXIT } from "../exit-codes.js";
import { guarded, parseSubcommandArgs } from "../subcommand-args.js";
import { escapeForPrompt } from "../terminal/render/terminal-text.js";

/** `agent commands [--workspace DIR]`: P04's effective allowlist and where each entry came from. */
export function commandsCommand(args: readonly string[], io: CliIo): Promise<number> {
  return guarded(io, () => {
    const { values, positionals } = parseSubcommandArgs("commands", args);
    if (positionals.length > 0) throw new Error("agent commands takes no arguments");
    const workspace = resolveWorkspace(values.workspace ?? defaultWorkspace(io.env, io.cwd));
    const { commands, notes } = loadCommandAllowlist(workspace);
    const lines =
      commands.length === 0
        ? [
            `no allowed commands in ${workspace}: run_command will refuse every command`,
            `to allow some, give package.json a test, lint, typecheck or build script, or write ${join(workspace, ".agent", "commands.json")} yourself: {"commands": [{"argv": ["make", "test"], "note": "why"}]} (docs/p04-approvals.md)`,
          ]
        : commands.map(
            (entry) =>
              `${JSON.stringify(entry.argv)}  ${entry.source}${entry.note === undefined ? "" : ` · ${entry.note}`}`,
          );
    const all = [
      ...lines,
      ...[...notes, ...refusedNowNotes(workspace, commands)].map((note) => `note: ${note}`),
    ];
    io.stdout.write(`${all.map((line) => escapeForPrompt(line)).join("\n")}\n`);
    return EXIT.ok;
  });
}
