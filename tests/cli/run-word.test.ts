import { describe, expect, it } from "vitest";
import { withoutRunWord } from "../../src/cli/run-word.js";

describe("the word run before a run's options (npm run agent-tutorial -- run …)", () => {
  it.each([
    [
      ["run", "--chapter", "3", "--prompt", "task"],
      ["--chapter", "3", "--prompt", "task"],
    ],
    [["run", "fix the bug"], ["fix the bug"]],
    [["run"], ["run"]],
    [
      ["runs", "--json"],
      ["runs", "--json"],
    ],
    [
      ["--prompt", "run"],
      ["--prompt", "run"],
    ],
    [[], []],
  ])("%j is read as %j", (argv, expected) => {
    expect(withoutRunWord(argv)).toEqual(expected);
  });
});
