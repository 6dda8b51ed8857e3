import { describe, expect, it } from "vitest";
import { WorkspaceFileError } from "../../../src/core/ports/filesystem.js";
import { GlobPattern } from "../../../src/adapters/filesystem/glob-pattern.js";

function matches(pattern: string, path: string): boolean {
  return GlobPattern.compile(pattern).matchesPath(path);
}

function compileError(pattern: string): unknown {
  try {
    GlobPattern.compile(pattern);
    return undefined;
  } catch (error) {
    return error instanceof WorkspaceFileError
      ? { code: error.code, message: error.message }
      : error;
  }
}

describe("GlobPattern matching", () => {
  it.each([
    ["*.ts", "a.ts", true],
    ["*.ts", "src/a.ts", false],
    ["*.ts", ".hidden.ts", true],
    ["src/*.ts", "src/a.ts", true],
    ["src/*.ts", "src/deep/a.ts", false],
    ["**", "a", true],
    ["**", "a/b/c", true],
    ["**/*.ts", "a.ts", true],
    ["**/*.ts", "x/y/a.ts", true],
    ["**/*.ts", "x/y/a.tsx", false],
    ["src/**/*.ts", "src/a.ts", true],
    ["src/**/*.ts", "src/x/y/a.ts", true],
    ["src/**/*.ts", "lib/a.ts", false],
    ["src/**", "src/a/b", true],
    ["**/test/**", "a/test/b.ts", true],
    ["**/test/**", "test/b.ts", true],
    ["a/**/**/b", "a/b", true],
    ["a**b", "aXXb", true],
    ["a**b", "a/b", false],
    ["?.md", "a.md", true],
    ["?.md", "ab.md", false],
    ["?.md", "中.md", true],
    // Whole code points, also outside the BMP (two UTF-16 units): one `?` each, stars step over them.
    ["?.md", "😀.md", true],
    ["??.md", "😀.md", false],
    ["a?[b]", "a😀b", true],
    ["*😀x", "😀😀x", true],
    ["*?c", "a😀😀c", true],
    ["[😀-😂].md", "😁.md", true],
    ["[abc].txt", "b.txt", true],
    ["[abc].txt", "d.txt", false],
    ["[a-c].txt", "c.txt", true],
    ["[a-c].txt", "C.txt", false],
    ["[!a].txt", "b.txt", true],
    ["[!a].txt", "a.txt", false],
    ["[]].txt", "].txt", true],
    ["[!]].txt", "x.txt", true],
    ["[a-].txt", "-.txt", true],
    ["[*].txt", "*.txt", true],
    ["[*].txt", "a.txt", false],
    ["[[]x", "[x", true],
    ["A.ts", "a.ts", false],
    ["src\\*.ts", "src/a.ts", true],
    ["./src/*.ts", "src/a.ts", true],
    ["*", "a.txt", true],
    ["*a*a*a*a*a*a*a*a*b", "a".repeat(200), false],
    // Characters that mean something to regular expressions are plain text here.
    ["a+b.(x)|{y}$^", "a+b.(x)|{y}$^", true],
    ["a.b", "aXb", false],
    // `\` separates segments; it never escapes (so `x\d` is not a regex digit class).
    ["x\\d", "x/d", true],
  ] as const)("%j against %j: %s", (pattern, path, expected) => {
    expect(matches(pattern, path)).toBe(expected);
  });

  it("prunes: says which directories could still hold a match", () => {
    const pattern = GlobPattern.compile("src/**/*.ts");
    expect(pattern.canMatchBelow(pattern.step(pattern.initial, "src"))).toBe(true);
    expect(pattern.step(pattern.initial, "lib")).toEqual([]);
    const exact = GlobPattern.compile("a/b.txt");
    const afterB = exact.step(exact.step(exact.initial, "a"), "b.txt");
    expect(exact.accepts(afterB)).toBe(true);
    expect(exact.canMatchBelow(afterB)).toBe(false);
  });
});

describe("GlobPattern rejects", () => {
  it.each([
    ["", { code: "invalid_path", message: "pattern must not be empty" }],
    [
      "/etc/*",
      {
        code: "invalid_path",
        message: "pattern must be relative to the workspace, not absolute: /etc/*",
      },
    ],
    [
      "\\\\server\\share\\*",
      {
        code: "invalid_path",
        message: "pattern must be relative to the workspace, not absolute: \\\\server\\share\\*",
      },
    ],
    [
      "C:\\*",
      {
        code: "invalid_path",
        message: "pattern must be relative to the workspace, not absolute: C:\\*",
      },
    ],
    ["../*", { code: "path_escape", message: "pattern must not contain parent segments: ../*" }],
    [
      "src/../../*",
      { code: "path_escape", message: "pattern must not contain parent segments: src/../../*" },
    ],
    [
      "src\\..\\*",
      { code: "path_escape", message: "pattern must not contain parent segments: src\\..\\*" },
    ],
    [
      "a\u0000*",
      { code: "invalid_path", message: 'pattern must not contain control characters: "a\\u0000*"' },
    ],
    [
      "[abc",
      {
        code: "invalid_path",
        message: "pattern has a [ without a closing ] (write [[] for a literal [): [abc",
      },
    ],
    ["[z-a]", { code: "invalid_path", message: "pattern has a reversed range [z-a]: [z-a]" }],
  ] as const)("%j", (pattern, expected) => {
    expect(compileError(pattern)).toEqual(expected);
  });

  it("allows wildcards next to dots: only a whole `..` segment is refused", () => {
    expect(compileError("..*")).toBeUndefined();
    expect(compileError("*..")).toBeUndefined();
    expect(matches("..*", "..hidden")).toBe(true);
  });
});
