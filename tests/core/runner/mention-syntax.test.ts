/** Which `@` in a person's message names a file, and which path: a table, whole results. */
import { describe, expect, it } from "vitest";
import { parseMentions } from "../../../src/core/runner/mention-syntax.js";

describe("parseMentions", () => {
  it.each([
    ["fix @src/x.ts", [["src/x.ts", "@src/x.ts"]]],
    ["@README.md first", [["README.md", "@README.md"]]],
    [
      "see @a.ts, @b.ts; and @c.ts.",
      [
        ["a.ts", "@a.ts"],
        ["b.ts", "@b.ts"],
        ["c.ts", "@c.ts"],
      ],
    ],
    [
      "(see @docs/x.md) and [@y.md]",
      [
        ["docs/x.md", "@docs/x.md"],
        ["y.md", "@y.md"],
      ],
    ],
    [
      "is it @a.ts? yes: @b.ts!",
      [
        ["a.ts", "@a.ts"],
        ["b.ts", "@b.ts"],
      ],
    ],
    ["ends with a colon @a.ts: here", [["a.ts", "@a.ts"]]],
    ["keeps inner dots @v1.2/x.ts.", [["v1.2/x.ts", "@v1.2/x.ts"]]],
    [
      "line\n@a.ts\tand\t@b.ts",
      [
        ["a.ts", "@a.ts"],
        ["b.ts", "@b.ts"],
      ],
    ],
    ['quoted @"my notes.md" too', [["my notes.md", '@"my notes.md"']]],
    ['quoted then dot @"a b.txt".', [["a b.txt", '@"a b.txt"']]],
    ["twice @a.ts and @a.ts", [["a.ts", "@a.ts"]]],
  ])("%j", (text, expected) => {
    expect(parseMentions(text).map(({ path, written }) => [path, written])).toEqual(expected);
  });

  it.each([
    "mail a@b.com about it",
    "user@host:/srv",
    "a lone @ sign",
    "only punctuation @...",
    "@",
    'no closing quote @"my notes.md',
    'empty quotes @"" here',
    "no mention at all",
    "x@y and foo.@bar",
  ])("%j has none", (text) => {
    expect(parseMentions(text)).toEqual([]);
  });
});
