/**
 * A mistyped flag after a subcommand: node's first sentence only (not its advice about `--` and
 * positionals, with its unbalanced quote), then the help that lists the command's flags. Exit 2.
 */
import { describe, expect, it } from "vitest";
import { findSubcommand } from "../../../src/cli/commands/index.js";
import { runCapturedSubcommand } from "../../support/captured-subcommand.js";

describe("an unknown option after a subcommand", () => {
  it.each([
    [["explain", "--bogus"], "Unknown option '--bogus' (see agent explain --help)"],
    [["approvals", "--bogus"], "Unknown option '--bogus' (see agent approvals --help)"],
    [["commands", "--bogus"], "Unknown option '--bogus' (see agent commands --help)"],
    [["undo", "--bogus"], "Unknown option '--bogus' (see agent undo --help)"],
    [["undo", "-1"], "Unknown option '-1' (see agent undo --help)"],
    [["mcp", "--bogus"], "Unknown option '--bogus' (see agent mcp --help)"],
    [["approve", "--bogus"], "Unknown option '--bogus' (see agent approve --help)"],
    [["deny", "--bogus"], "Unknown option '--bogus' (see agent deny --help)"],
    [["runs", "--bogus"], "Unknown option '--bogus' (see agent runs --help)"],
    [["config", "--bogus"], "Unknown option '--bogus' (see --help)"],
    [["resume", "--bogus"], "Unknown option '--bogus' (see --help)"],
  ])("agent %j says it in one clean line", async (argv, message) => {
    const found = findSubcommand(argv);
    if (found === undefined) throw new Error(`${argv.join(" ")} is not a subcommand`);
    const run = await runCapturedSubcommand(found.run, found.args, {
      home: "/nonexistent",
      cwd: "/",
    });
    expect(run).toEqual({ code: 2, out: "", err: `agent: ${message}\n` });
  });
});
