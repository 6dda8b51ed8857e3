import { describe, expect, it } from "vitest";
import { SUBCOMMAND_NAMES } from "../../../src/cli/commands/index.js";
import { editDistance, lookalikeCommand } from "../../../src/cli/commands/lookalike.js";

describe("lookalikeCommand", () => {
  it.each([
    ["resme", "agent resume"],
    ["run", "agent runs"],
    ["Runs", "agent runs"],
    ["help", "agent --help"],
    ["aprove", "agent approve"],
    ["approval", "agent approvals"],
    ["explian", "agent explain"],
    ["commnds", "agent commands"],
    ["version", "agent --version"],
    ["mpc", "agent mcp"],
    ["undi", "agent undo"],
  ])("%s: did you mean %s", (word, meant) => {
    expect(lookalikeCommand(word, SUBCOMMAND_NAMES)).toBe(meant);
  });

  it.each([
    "test",
    "refactor",
    "review",
    "lint",
    "fix",
    "build",
    "hello",
    "run the tests",
    "ls -la",
    "résumé",
    // Two edits from mcp, but two letters: a short name takes one edit per three of its letters.
    "ci",
    "go",
    "doc",
  ])("%j is a task", (word) => {
    expect(lookalikeCommand(word, SUBCOMMAND_NAMES)).toBeUndefined();
  });

  it("editDistance counts single edits", () => {
    expect(editDistance("resme", "resume")).toBe(1);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("mpc", "mcp")).toBe(1);
  });
});

describe("subcommand help", () => {
  it("every subcommand has its own usage, within 80 columns", async () => {
    const { findSubcommand } = await import("../../../src/cli/commands/index.js");
    for (const name of SUBCOMMAND_NAMES) {
      let printed = "";
      const found = findSubcommand([name, "--help"]);
      expect(found?.printsHelp).toBe(true);
      await found?.run([], {
        stdout: { write: (text: string) => ((printed += text), true) },
      } as never);
      expect(printed.startsWith(`Usage: agent ${name}`), name).toBe(true);
      expect(printed.split("\n").filter((line) => line.length > 80)).toEqual([]);
    }
  });
});
