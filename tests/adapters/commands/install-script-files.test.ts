/**
 * installScriptRun: which install-time script of the workspace's packages runs or names a file,
 * read by the command reader from each package's own folder.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { installScriptRun } from "../../../src/adapters/commands/index.js";

const made: string[] = [];
function workspace(files: Readonly<Record<string, string | object>>): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "install-scripts-")));
  made.push(dir);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), typeof content === "string" ? content : JSON.stringify(content));
  }
  return dir;
}
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("installScriptRun", () => {
  it.each([
    // The npm script an install-time script runs is read too.
    [
      { "package.json": { scripts: { prepare: "npm run build", build: "node tools/b.js" } } },
      "tools/b.js",
      { manifest: "package.json", script: "prepare" },
    ],
    // A nested package's names start from its own folder, and may leave it.
    [
      { "packages/a/package.json": { scripts: { postinstall: "node ../../shared/x.js" } } },
      "shared/x.js",
      { manifest: "packages/a/package.json", script: "postinstall" },
    ],
    // A file a word names (not one a program is known to run) counts, made yet or not.
    [
      { "package.json": { scripts: { install: "node-gyp rebuild --config=gyp/conf.py" } } },
      "gyp/conf.py",
      { manifest: "package.json", script: "install" },
    ],
    // Only install-time scripts: test, build and start run when the person asks for them.
    [{ "package.json": { scripts: { test: "node t.js", start: "node t.js" } } }, "t.js", undefined],
    // npm stops on a package.json that is not JSON (a fixture's), and runs nothing of it.
    [{ "fixtures/bad/package.json": "{ not json" }, "fixtures/bad/x.js", undefined],
  ])("%j: a write of %s → %j", (files, landing, expected) => {
    expect(installScriptRun(workspace(files), landing)).toEqual(expected);
  });

  it("a file a script names through a linked folder is the file it leads to", () => {
    const ws = workspace({
      "package.json": { scripts: { postinstall: "node scripts/post.js" } },
      "tools/post.js": "",
    });
    symlinkSync("tools", join(ws, "scripts"));
    expect(installScriptRun(ws, "tools/post.js")).toEqual({
      manifest: "package.json",
      script: "postinstall",
    });
  });

  it("a script it cannot read fully counts as running any file, and says why", () => {
    const ws = workspace({ "package.json": { scripts: { preinstall: "eval $(cat x)" } } });
    expect(installScriptRun(ws, "src/app.js")).toEqual({
      manifest: "package.json",
      script: "preinstall",
      unread:
        "the script has a command substitution, which hides what it runs from the harness, so it cannot be bound to an approval; write it as plain commands",
    });
  });
});
