/**
 * `agent approve --help` and the others (subcommand-help.ts) name exactly the options their parsers
 * take, with the defaults the main help states. Each option is probed with positionals to spare,
 * so a command stops at its argument check, after parsing and before it touches anything.
 */
import { describe, expect, it } from "vitest";
import { HELP_TEXT } from "../../../src/cli/args.js";
import { findSubcommand } from "../../../src/cli/commands/index.js";
import { SUBCOMMAND_HELP } from "../../../src/cli/commands/subcommand-help.js";
import { runCapturedSubcommand } from "../../support/captured-subcommand.js";

/** Every option any of these commands takes, and some that only others take. */
const PROBED = [
  "--workspace",
  "--state-dir",
  "--audit-log",
  "--ttl",
  "--json",
  "--limit",
  "--all",
  "--run",
];

const oneLine = (text: string): string => text.replace(/\s+/gu, " ");

function helpOf(command: string): string {
  const help = SUBCOMMAND_HELP.get(command);
  if (help === undefined) throw new Error(`no help for agent ${command}`);
  return help;
}

/** The options the usage lines (everything before the first blank line) name. */
function usageOptions(help: string): string[] {
  const usage = help.split("\n\n")[0] ?? "";
  return [...new Set(usage.match(/--[a-z-]+/gu) ?? [])].sort();
}

async function accepts(command: string, flag: string): Promise<boolean> {
  const found = findSubcommand([command, flag, "x", "y", "z"]);
  if (found === undefined) throw new Error(`${command} is not a subcommand`);
  const run = await runCapturedSubcommand(found.run, found.args, {
    home: "/nonexistent",
    cwd: "/",
  });
  expect(run.code).toBe(2);
  return !run.err.includes("Unknown option");
}

describe("a command's own help names the options its parser takes", () => {
  it.each(["approvals", "approve", "deny", "commands", "mcp"])("agent %s", async (command) => {
    const taken: string[] = [];
    for (const flag of PROBED) if (await accepts(command, flag)) taken.push(flag);
    expect(usageOptions(helpOf(command))).toEqual(taken.sort());
  });

  it("approve and deny say where their --audit-log comes from", () => {
    for (const command of ["approve", "deny"]) {
      expect(oneLine(helpOf(command))).toContain(
        "--audit-log <file> Also append the answer to this audit log (default: $AGENT_AUDIT_LOG)",
      );
    }
  });
});

describe("a command's own help states the defaults the main help states", () => {
  const workspace =
    "the directory you ran the command from: $INIT_CWD under npm, else the current directory";
  const stateDir =
    "$AGENT_STATE_DIR, else $XDG_STATE_HOME/agent-harness or ~/.local/state/agent-harness; on Windows %LOCALAPPDATA%\\agent-harness";

  it("agent --help", () => {
    expect(oneLine(HELP_TEXT)).toContain(`(default: ${workspace})`);
    expect(oneLine(HELP_TEXT)).toContain(`(default: ${stateDir})`);
  });

  it.each(["approvals", "approve", "deny", "commands"])("agent %s", (command) => {
    expect(oneLine(helpOf(command))).toContain(
      `--workspace <dir> The workspace (default: ${workspace})`,
    );
    expect(oneLine(helpOf(command))).toContain(
      `--state-dir <dir> Where runs and approvals are kept (default: ${stateDir})`,
    );
  });

  it("agent mcp", () => {
    expect(oneLine(helpOf("mcp"))).toContain(
      `--workspace <dir> Where stdio servers start (default: ${workspace})`,
    );
  });

  it("fits an 80-column terminal", () => {
    const wide = [...SUBCOMMAND_HELP.values()]
      .flatMap((help) => help.split("\n"))
      .filter((line) => line.length > 80);
    expect(wide).toEqual([]);
  });
});
