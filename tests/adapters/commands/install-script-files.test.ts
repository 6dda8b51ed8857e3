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
      { kind: "install-script", manifest: "package.json", script: "prepare" },
    ],
    // A nested package's names start from its own folder, and may leave it.
    [
      { "packages/a/package.json": { scripts: { postinstall: "node ../../shared/x.js" } } },
      "shared/x.js",
      { kind: "install-script", manifest: "packages/a/package.json", script: "postinstall" },
    ],
    // A file a word names (not one a program is known to run) counts, made yet or not.
    [
      { "package.json": { scripts: { install: "node-gyp rebuild --config=gyp/conf.py" } } },
      "gyp/conf.py",
      { kind: "install-script", manifest: "package.json", script: "install" },
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
      kind: "install-script",
      manifest: "package.json",
      script: "postinstall",
    });
  });

  it("a file a script names, not made yet, is asked in any case: a workspace may ignore case", () => {
    const ws = workspace({ "package.json": { scripts: { postinstall: "node scripts/setup.js" } } });
    const run = { kind: "install-script", manifest: "package.json", script: "postinstall" };
    expect(installScriptRun(ws, "Scripts/Setup.js")).toEqual(run);
    mkdirSync(join(ws, "scripts"));
    expect(installScriptRun(ws, "scripts/SETUP.JS")).toEqual(run);
    expect(installScriptRun(ws, "scripts/setup.cjs")).toBeUndefined();
  });

  it("a script it cannot read fully counts as running any file, and says why", () => {
    const ws = workspace({ "package.json": { scripts: { preinstall: "eval $(cat x)" } } });
    expect(installScriptRun(ws, "src/app.js")).toEqual({
      kind: "install-script",
      manifest: "package.json",
      script: "preinstall",
      unread:
        "the script has a command substitution, which hides what it runs from the harness, so it cannot be bound to an approval; write it as plain commands",
    });
  });
});

describe("installScriptRun finds what a script names in its words too (hostile round 12)", () => {
  it.each([
    [{ preinstall: "node -e \"require('./lib/setup')\"" }, "lib/setup.js", true],
    [{ postinstall: "node $npm_package_config_hook" }, "lib/hook.js", undefined],
    [{ postinstall: "node ${npm_package_config_hook}" }, "lib/hook.js", undefined],
    [{ postinstall: "cd x; node $PWD/scripts/post.js" }, "scripts/post.js", true],
    [{ postinstall: "cd x; node ..post.js" }, "..post.js", true],
    [{ postinstall: "cd tools && python -m tools.setup" }, "tools/setup.py", true],
    [{ postinstall: "npx foo -r./hook.js" }, "hook.js", true],
  ])("%j asks before a write of %s", (scripts, path, named) => {
    const ws = workspace({ "package.json": { scripts, config: { hook: "lib/hook.js" } } });
    expect(installScriptRun(ws, path)).toEqual({
      kind: "install-script",
      manifest: "package.json",
      script: Object.keys(scripts)[0],
      ...(named === true ? { named: true } : {}),
    });
  });

  it("npm --prefix DIR run X: the file X runs in DIR", () => {
    const ws = workspace({
      "package.json": { scripts: { postinstall: "npm --prefix tools run gen" } },
      "tools/package.json": { scripts: { gen: "node gen.js" } },
    });
    expect(installScriptRun(ws, "tools/gen.js")).toEqual({
      kind: "install-script",
      manifest: "package.json",
      script: "postinstall",
      named: true,
    });
    expect(installScriptRun(ws, "src/app.js")).toBeUndefined();
  });

  it("a variable alone is the person's, not a file: other writes stay unasked", () => {
    const ws = workspace({
      "package.json": { scripts: { prepare: '[ -n "$CI" ] || cd client && npm install' } },
    });
    expect(installScriptRun(ws, "src/app.js")).toBeUndefined();
  });

  it("many cds are not worked through without end: past the cap, every write asks", () => {
    const text = Array.from({ length: 12 }, (_, index) => `cd d${String(index)} && eval x`).join(
      "; ",
    );
    const ws = workspace({ "package.json": { scripts: { postinstall: text } } });
    // The word scan gives up past the cap, so what is said is the reader's own refusal.
    expect(installScriptRun(ws, "src/app.js")).toEqual({
      kind: "install-script",
      manifest: "package.json",
      script: "postinstall",
      unread:
        "the command changes directory (cd), after which the harness cannot tell which workspace files its paths name, so it cannot be bound to an approval; name the files from the workspace's top",
    });
    // Under the cap the same words are worked through, and an unrelated write stays unasked.
    const few = workspace({ "package.json": { scripts: { postinstall: "cd d0 && eval x" } } });
    expect(installScriptRun(few, "src/app.js")).toBeUndefined();
  });
});

describe("installScriptRun, round 13", () => {
  it.each([
    [
      { postinstall: "node $npm_package_config_hook_path" },
      { config: { hook: { path: "lib/hook.js" } } },
      "lib/hook.js",
    ],
    [
      { postinstall: "node $npm_package_config_hooks_0" },
      { config: { hooks: ["lib/hook.js"] } },
      "lib/hook.js",
    ],
    [
      { postinstall: "node $npm_package_bin_setup" },
      { bin: { setup: "bin/setup.js" } },
      "bin/setup.js",
    ],
  ])("%j with %j asks before a write of %s", (scripts, fields, path) => {
    const ws = workspace({ "package.json": { scripts, ...fields } });
    expect(installScriptRun(ws, path)?.script).toBe("postinstall");
  });

  it.each([
    ["cd tools && npm test", { test: "node check.js" }, "tools/check.js"],
    ["npm --prefix tools start", { start: "node srv.js" }, "tools/srv.js"],
    ["npm --prefix tools run gen", { pregen: "node pre.js", gen: "node gen.js" }, "tools/pre.js"],
    ["npm run gen -w tools", { gen: "node gen.js" }, "tools/gen.js"],
    ["npm run gen --workspace=tools", { gen: "node gen.js" }, "tools/gen.js"],
  ])("%s reaches %s through tools' own scripts", (postinstall, toolsScripts, path) => {
    const ws = workspace({
      "package.json": { scripts: { postinstall } },
      "tools/package.json": { scripts: toolsScripts },
    });
    expect(installScriptRun(ws, path)?.script).toBe("postinstall");
  });
});

describe("installScriptRun: a package.json that starts with a byte-order mark, as npm reads it", () => {
  const BOM = "\uFEFF";
  it("its config variables name the file a script runs", () => {
    const manifest = {
      scripts: { postinstall: "node $npm_package_config_hook" },
      config: { hook: "lib/hook.js" },
    };
    const ws = workspace({ "package.json": `${BOM}${JSON.stringify(manifest)}` });
    expect(installScriptRun(ws, "lib/hook.js")?.script).toBe("postinstall");
  });

  it("its main is what node . runs", () => {
    const ws = workspace({
      "package.json": { scripts: { postinstall: "cd tools && node ." } },
      "tools/package.json": `${BOM}${JSON.stringify({ main: "lib/main.js" })}`,
    });
    expect(installScriptRun(ws, "tools/lib/main.js")?.script).toBe("postinstall");
  });

  it("its npm run targets are read through", () => {
    const ws = workspace({
      "package.json": { scripts: { postinstall: "npm --prefix tools run gen" } },
      "tools/package.json": `${BOM}${JSON.stringify({ scripts: { gen: "node gen/x.js" } })}`,
    });
    expect(installScriptRun(ws, "tools/gen/x.js")?.script).toBe("postinstall");
  });
});

describe("installScriptRun: a package's main and an undotted python module", () => {
  it("cd tools && node . runs tools' main", () => {
    const ws = workspace({
      "package.json": { scripts: { postinstall: "cd tools && node ." } },
      "tools/package.json": { main: "lib/main.js" },
    });
    expect(installScriptRun(ws, "tools/lib/main.js")?.script).toBe("postinstall");
  });

  it("cd tools && python3 -m setup runs tools/setup.py", () => {
    const ws = workspace({
      "package.json": { scripts: { postinstall: "cd tools && python3 -m setup" } },
    });
    expect(installScriptRun(ws, "tools/setup.py")?.script).toBe("postinstall");
    expect(installScriptRun(ws, "src/app.py")).toBeUndefined();
  });
});
