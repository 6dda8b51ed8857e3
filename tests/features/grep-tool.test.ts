import { link, mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NodeWorkspaceFileSystem } from "../../src/adapters/filesystem/node-filesystem.js";
import type { ToolResult } from "../../src/core/tools/tool-result.js";
import { ToolRegistry } from "../../src/core/tools/tool-registry.js";
import { createGrepTool } from "../../src/features/grep-tool.js";
import {
  callTool,
  errorResult as error,
  fileToolRegistry,
  okResult as ok,
} from "../support/file-tool-calls.js";
import { makeTempWorkspace, type TempWorkspace } from "../support/temp-workspace.js";

let temp: TempWorkspace;
let registry: ToolRegistry;

beforeEach(async () => {
  temp = await makeTempWorkspace();
  registry = new ToolRegistry([
    createGrepTool({ fileSystem: new NodeWorkspaceFileSystem(temp.ws) }),
  ]);
});
afterEach(() => temp.cleanup());

const grep = (args: unknown): Promise<ToolResult> => callTool(registry, "grep", args);

async function put(path: string, content: string | Buffer): Promise<void> {
  const full = join(temp.ws, path);
  await mkdir(join(full, ".."), { recursive: true });
  await writeFile(full, content);
}

describe("grep", () => {
  it("is a read tool", () => {
    expect(registry.snapshot().effectOf("grep")).toBe("read");
  });

  it("prints path:line:text, files in name order, then subdirectories", async () => {
    await put("b.ts", "const todo = 1;\nnothing\n");
    await put("a.ts", "// TODO first\n");
    await put("src/c.ts", "x\ny TODO\n");
    expect(await grep({ pattern: "TODO|todo" })).toEqual(
      ok("a.ts:1:// TODO first\nb.ts:1:const todo = 1;\nsrc/c.ts:2:y TODO"),
    );
  });

  it("ignore_case, fixed_strings and glob", async () => {
    await put("a.ts", "Foo.bar()\nfooXbar\n");
    await put("a.md", "foo.bar\n");
    expect(await grep({ pattern: "foo.bar", ignore_case: true, glob: "**/*.ts" })).toEqual(
      ok("a.ts:1:Foo.bar()\na.ts:2:fooXbar"),
    );
    expect(await grep({ pattern: "foo.bar", fixed_strings: true })).toEqual(ok("a.md:1:foo.bar"));
    expect(
      await grep({ pattern: "FOO.BAR", fixed_strings: true, ignore_case: true, glob: "*.ts" }),
    ).toEqual(ok("a.ts:1:Foo.bar()"));
  });

  it("shows context lines with - and separates groups with --", async () => {
    await put("a.txt", ["1", "2 hit", "3", "4", "5", "6", "7 hit", "8"].join("\n"));
    expect(await grep({ pattern: "hit", context: 1 })).toEqual(
      ok(
        [
          "a.txt-1-1",
          "a.txt:2:2 hit",
          "a.txt-3-3",
          "--",
          "a.txt-6-6",
          "a.txt:7:7 hit",
          "a.txt-8-8",
        ].join("\n"),
      ),
    );
  });

  it("stops at the cap and says so", async () => {
    await put("a.txt", "hit\nhit\nhit\n");
    expect(await grep({ pattern: "hit", max_results: 2 })).toEqual(
      ok("a.txt:1:hit\na.txt:2:hit\n[more matches not shown: the cap of 2 was reached]"),
    );
  });

  it("skips what .gitignore ignores, nested files re-including, and never reads .git", async () => {
    await put(".gitignore", "dist/\n*.log\n");
    await put("dist/out.js", "needle\n");
    await put("debug.log", "needle\n");
    await put("pkg/.gitignore", "!keep.log\n");
    await put("pkg/keep.log", "needle\n");
    await put(".git/config", "needle\n");
    await put("node_modules/dep/index.js", "needle\n");
    await put("src/a.ts", "needle\n");
    expect(await grep({ pattern: "needle" })).toEqual(
      ok("pkg/keep.log:1:needle\nsrc/a.ts:1:needle"),
    );
  });

  it("skips what .git/info/exclude ignores, under the .gitignore files", async () => {
    await put(".git/info/exclude", "scratch/\n*.tmp\n");
    await put("scratch/notes.txt", "needle\n");
    await put("a.tmp", "needle\n");
    await put("pkg/.gitignore", "!keep.tmp\n");
    await put("pkg/keep.tmp", "needle\n");
    await put("src/a.ts", "needle\n");
    expect(await grep({ pattern: "needle" })).toEqual(
      ok("pkg/keep.tmp:1:needle\nsrc/a.ts:1:needle"),
    );
  });

  it("says a path it names is ignored and was not searched, rather than that nothing matched", async () => {
    await put(".gitignore", ".env\n.venv/\n");
    await put(".git/info/exclude", "build/\n");
    await put(".env", "PASSWORD=hunter2\n");
    await put(".venv/lib/site.py", "hunter2\n");
    await put("build/out.txt", "hunter2\n");
    const notSearched = (path: string, named = path) =>
      ok(
        `[${named} was not searched: .gitignore or .git/info/exclude ignores ${path}, and grep ` +
          "leaves out ignored files even when path names them]",
      );
    expect(await grep({ pattern: "hunter2", path: ".env" })).toEqual(notSearched(".env"));
    expect(await grep({ pattern: "hunter2", path: ".venv" })).toEqual(notSearched(".venv"));
    expect(await grep({ pattern: "hunter2", path: ".venv/lib" })).toEqual(
      notSearched(".venv", ".venv/lib"),
    );
    expect(await grep({ pattern: "hunter2", path: "build/out.txt" })).toEqual(
      notSearched("build", "build/out.txt"),
    );
    // A folder that is not ignored is searched, its ignored files left out as ever.
    expect(await grep({ pattern: "hunter2", path: "." })).toEqual(ok("No matches for hunter2"));
  });

  it("searches a saved output the harness pointed to, though .agent/.gitignore ignores it", async () => {
    await put(".agent/.gitignore", "*\n!/commands.json\n");
    await put(".agent/outputs/call_1.log", "1\n123456\n3\n");
    await put(".agent/outputs/call_2.log", "123456 again\n");
    await put(".agent/notes.txt", "123456\n");
    expect(await grep({ pattern: "^123456$", path: ".agent/outputs/call_1.log" })).toEqual(
      ok(".agent/outputs/call_1.log:2:123456"),
    );
    expect(await grep({ pattern: "123456", path: ".agent/outputs" })).toEqual(
      ok(".agent/outputs/call_1.log:2:123456\n.agent/outputs/call_2.log:1:123456 again"),
    );
    // Elsewhere in .agent, and in a search of the whole workspace, the ignore file still holds.
    expect(await grep({ pattern: "123456" })).toEqual(ok("No matches for 123456"));
  });

  it("says nothing of ignore files for a path the person's rules withhold", async () => {
    await put(".gitignore", ".env\n");
    await put(".env", "PASSWORD=hunter2\n");
    const withheld = new ToolRegistry([
      createGrepTool({ fileSystem: new NodeWorkspaceFileSystem(temp.ws), withheld: [".env"] }),
    ]);
    expect(await callTool(withheld, "grep", { pattern: "hunter2", path: ".env" })).toEqual(
      ok("No matches for hunter2\n[files your settings deny or ask about are not searched]"),
    );
  });

  it("reads .git/info/exclude only through real directories, never through a link", async () => {
    await mkdir(join(temp.evil, "info"), { recursive: true });
    await writeFile(join(temp.evil, "info", "exclude"), "*.ts\n");
    await symlink(temp.evil, join(temp.ws, ".git"));
    await put("src/a.ts", "needle\n");
    expect(await grep({ pattern: "needle" })).toEqual(ok("src/a.ts:1:needle"));
  });

  it("searches node_modules only when the glob names it", async () => {
    await put("node_modules/dep/index.js", "needle\n");
    expect(await grep({ pattern: "needle", glob: "node_modules/**" })).toEqual(
      ok("node_modules/dep/index.js:1:needle"),
    );
  });

  it("leaves binary files out and counts them", async () => {
    await put("a.bin", Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x00, 0x01]));
    await put("a.txt", "needle\n");
    expect(await grep({ pattern: "needle" })).toEqual(
      ok("a.txt:1:needle\n[1 binary files not searched]"),
    );
  });

  it("never follows a link out, to a file or a directory, nor reads a hard-linked file", async () => {
    await writeFile(join(temp.evil, "secret.txt"), "needle\n");
    await symlink(join(temp.evil, "secret.txt"), join(temp.ws, "link.txt"));
    await symlink(temp.evil, join(temp.ws, "linked-dir"));
    await link(join(temp.evil, "secret.txt"), join(temp.ws, "hard.txt"));
    expect(await grep({ pattern: "needle" })).toEqual(ok("No matches for needle"));
  });

  it("quotes a path that could pass for another field", async () => {
    await put("a:9:b.txt", "needle\n");
    expect(await grep({ pattern: "needle" })).toEqual(ok('"a:9:b.txt":1:needle'));
  });

  it("refuses a malformed regular expression, and a glob that leaves the workspace", async () => {
    expect(await grep({ pattern: "(" })).toEqual(
      error(
        "invalid_arguments",
        "pattern is not a valid regular expression (Invalid regular expression: /(/: Unterminated group); " +
          "fix it, or set fixed_strings to true to search for the text as it is",
      ),
    );
    const escaping = await grep({ pattern: "x", glob: "../**" });
    expect(escaping.isError).toBe(true);
    expect(escaping.errorCode).toBe("path_escape");
  });

  it("stops a pattern that backtracks without end at its deadline, with a stable error", async () => {
    // `^(a+)+$` against forty `a`s and a `b`: about 2^40 steps, far past any test's time.
    await put("a.txt", `${"a".repeat(40)}b\n`);
    const quick = new ToolRegistry([
      createGrepTool({
        fileSystem: new NodeWorkspaceFileSystem(temp.ws, { grepDeadlineMs: 100 }),
      }),
    ]);
    const pending = callTool(quick, "grep", { pattern: "^(a+)+$" });
    // The thread that asked is free meanwhile: its next turn comes before the answer.
    const first = await Promise.race([
      pending.then(() => "grep answered"),
      new Promise((resolve) =>
        setImmediate(() => {
          resolve("event loop turned");
        }),
      ),
    ]);
    expect(first).toBe("event loop turned");
    expect(await pending).toEqual(
      error(
        "grep_timeout",
        "grep did not finish within 0.1 s and was stopped; nothing it found is shown. A pattern " +
          "with nested repetition such as (a+)+ can take that long on one line: simplify the " +
          "pattern, narrow the search with glob, or set fixed_strings to true",
      ),
    );
  });

  it("answers other calls while one search runs, and stops that one when the run is cancelled", async () => {
    await put("slow/a.txt", `${"a".repeat(40)}b\n`);
    await put("quick/b.txt", "needle\n");
    const cancel = new AbortController();
    const snapshot = registry.snapshot();
    const prepared = snapshot.prepare({
      id: "call_slow",
      name: "grep",
      arguments: JSON.stringify({ pattern: "^(a+)+$", glob: "slow/*" }),
    });
    if (!prepared.ok) throw new Error("the call did not prepare");
    const pending = snapshot.invoke(prepared.call, { signal: cancel.signal });
    expect(await grep({ pattern: "needle", glob: "quick/*" })).toEqual(ok("quick/b.txt:1:needle"));
    cancel.abort();
    expect(await pending).toEqual(error("grep_cancelled", "grep was cancelled before it finished"));
  });

  it("cuts a very long line", async () => {
    await put("a.txt", `needle${"x".repeat(600)}\n`);
    expect(await grep({ pattern: "needle" })).toEqual(
      ok(`a.txt:1:needle${"x".repeat(494)}…[106 more characters]`),
    );
  });
});

describe("grep's path", () => {
  beforeEach(async () => {
    await put("top.ts", "hit top\n");
    await put("src/a.ts", "hit a\n");
    await put("src/deep/b.ts", "hit b\n");
    await put("srcx/c.ts", "hit c\n");
  });

  it("searches only the folder it names, by component (src is not srcx)", async () => {
    expect(await grep({ pattern: "hit", path: "src" })).toEqual(
      ok("src/a.ts:1:hit a\nsrc/deep/b.ts:1:hit b"),
    );
    expect(await grep({ pattern: "hit", path: "src/deep/" })).toEqual(ok("src/deep/b.ts:1:hit b"));
  });

  it("searches one file it names, and the whole workspace for .", async () => {
    expect(await grep({ pattern: "hit", path: "src/a.ts" })).toEqual(ok("src/a.ts:1:hit a"));
    expect(await grep({ pattern: "hit", path: "." })).toEqual(
      ok("top.ts:1:hit top\nsrc/a.ts:1:hit a\nsrc/deep/b.ts:1:hit b\nsrcx/c.ts:1:hit c"),
    );
  });

  it("narrows a glob, which stays workspace-relative", async () => {
    await put("src/deep/b.md", "hit md\n");
    expect(await grep({ pattern: "hit", path: "src/deep", glob: "**/*.md" })).toEqual(
      ok("src/deep/b.md:1:hit md"),
    );
  });

  it("searches a node_modules it names", async () => {
    await put("node_modules/pkg/index.js", "hit dep\n");
    expect(await grep({ pattern: "hit dep" })).toEqual(ok("No matches for hit dep"));
    expect(await grep({ pattern: "hit dep", path: "node_modules/pkg" })).toEqual(
      ok("node_modules/pkg/index.js:1:hit dep"),
    );
  });

  it("is refused outside the workspace exactly as read_file refuses it", async () => {
    await writeFile(join(temp.evil, "secret.txt"), "hit secret\n");
    await symlink(temp.evil, join(temp.ws, "linked-dir"));
    const files = fileToolRegistry(temp.ws);
    const cases = [
      ["../outside", error("path_escape", "path must not contain parent segments: ../outside")],
      ["/etc", error("invalid_path", "path must be relative to the workspace, not absolute: /etc")],
      ["linked-dir", error("path_escape", "path resolves outside the workspace: linked-dir")],
      ["missing", error("file_not_found", "file not found: missing")],
    ] as const;
    for (const [path, refusal] of cases) {
      expect(refusal.isError).toBe(true);
      expect(await grep({ pattern: "hit", path })).toEqual(refusal);
      expect(await callTool(files, "read_file", { path })).toEqual(refusal);
    }
  });
});
