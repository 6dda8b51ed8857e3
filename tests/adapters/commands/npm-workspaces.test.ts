/**
 * npm's workspace flags (`-w`, `--workspace`, `-ws`, `--include-workspace-root`) bound to what
 * npm runs: the packages they select, found as npm finds them from the root package.json, and
 * each package's script and hooks; refused where the selection cannot be said exactly.
 */
import { rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { argvRefusal } from "../../../src/adapters/commands/command-reach.js";
import {
  NpmScriptError,
  npmScriptText,
  shellTextReach,
} from "../../../src/adapters/commands/index.js";
import { UnbindableCommandError } from "../../../src/core/grants/unbindable-command.js";
import { scratchWorkspace } from "../../support/scratch-workspace.js";

let workspace = "";
const written = scratchWorkspace("npm-workspaces-", (root) => (workspace = root));
/** The file's SHA-256, as the binding rows say it after `sha256 `. */
const write = (path: string, value: unknown): string =>
  written(path, value).slice("sha256 ".length);

/** A monorepo of two packages under packages/*; the root's package.json digest. */
function monorepo(workspaces: unknown = ["packages/*"]): string {
  write("packages/core/package.json", {
    name: "@mono/core",
    scripts: { test: "vitest run", pretest: "tsc", build: "tsc -b" },
  });
  write("packages/util/package.json", { name: "util", scripts: { test: "node --test" } });
  return write("package.json", { name: "mono", private: true, workspaces });
}

const FOUND = '"@mono/core" (packages/core), "util" (packages/util)';

describe("npm's workspace flags bind the package they select", () => {
  it.each([
    [["npm", "test", "-w", "@mono/core"]],
    [["npm", "test", "--workspace=packages/core"]],
    [["npm", "test", "-w", "packages/core"]],
    [["npm", "test", "--workspace", "./packages/core/"]],
    [["npm", "-w", "@mono/core", "test", "--", "--watch=false"]],
  ])("%j binds packages/core's test script, its hook and the root package.json", (argv) => {
    const root = monorepo();
    expect(npmScriptText(workspace, argv)).toBe(
      `npm finds the workspaces ${FOUND} from package.json (sha256 ${root}) · in "@mono/core" (packages/core) · runs the script "vitest run" · and npm runs pretest "tsc" around it`,
    );
  });

  it("npm run build -w @mono/core binds that package's build script", () => {
    const root = monorepo();
    expect(npmScriptText(workspace, ["npm", "run", "build", "-w", "@mono/core"])).toBe(
      `npm finds the workspaces ${FOUND} from package.json (sha256 ${root}) · in "@mono/core" (packages/core) · runs the script "tsc -b"`,
    );
  });

  it("the same command binds differently once packages/core's test script changes", () => {
    monorepo();
    const argv = ["npm", "test", "-w", "@mono/core"];
    const before = npmScriptText(workspace, argv);
    write("packages/core/package.json", {
      name: "@mono/core",
      scripts: { test: "vitest run && curl evil", pretest: "tsc" },
    });
    const after = npmScriptText(workspace, argv);
    expect(after).not.toBe(before);
    expect(after).toContain('runs the script "vitest run && curl evil"');
  });

  it("the same command binds differently once the root's workspaces change", () => {
    monorepo();
    const argv = ["npm", "test", "-w", "@mono/core"];
    const before = npmScriptText(workspace, argv);
    write("vendor/core/package.json", { name: "other", scripts: { test: "sh evil.sh" } });
    const root = write("package.json", {
      name: "mono",
      private: true,
      workspaces: ["packages/*", "vendor/*"],
    });
    expect(npmScriptText(workspace, argv)).toBe(
      `npm finds the workspaces ${FOUND}, "other" (vendor/core) from package.json (sha256 ${root}) · in "@mono/core" (packages/core) · runs the script "vitest run" · and npm runs pretest "tsc" around it`,
    );
    expect(npmScriptText(workspace, argv)).not.toBe(before);
  });

  it("a new package folder changes the binding, though package.json did not change", () => {
    monorepo();
    const argv = ["npm", "test", "-w", "@mono/core"];
    const before = npmScriptText(workspace, argv);
    write("packages/new/package.json", { name: "new" });
    expect(npmScriptText(workspace, argv)).toContain('"new" (packages/new)');
    expect(npmScriptText(workspace, argv)).not.toBe(before);
  });

  it("{ packages: [...] }, dir/** and literal folders are expanded as npm does, skipping dot folders and node_modules", () => {
    write("apps/package.json", { name: "apps" });
    write("apps/web/site/package.json", { name: "site", scripts: { test: "ava" } });
    write("apps/.cache/package.json", { name: "hidden" });
    write("apps/node_modules/x/package.json", { name: "installed" });
    write("tools/lint/package.json", {});
    write("packages/@scope/pkg/package.json", {});
    const root = write("package.json", {
      workspaces: { packages: ["./apps/**", "tools/lint", "packages/@scope/*"] },
    });
    expect(npmScriptText(workspace, ["npm", "test", "-w", "site"])).toBe(
      `npm finds the workspaces "apps" (apps), "site" (apps/web/site), "lint" (tools/lint), "@scope/pkg" (packages/@scope/pkg) from package.json (sha256 ${root}) · in "site" (apps/web/site) · runs the script "ava"`,
    );
  });

  it("-ws, a parent folder and several -w bind each package selected, one without the script said so", () => {
    const root = monorepo();
    const each = `in "@mono/core" (packages/core) · runs the script "vitest run" · and npm runs pretest "tsc" around it · in "util" (packages/util) · runs the script "node --test"`;
    for (const argv of [
      ["npm", "test", "-ws"],
      ["npm", "test", "--workspaces"],
      ["npm", "test", "-w", "packages"],
      ["npm", "test", "-w", "@mono/core", "-w", "util"],
    ]) {
      expect(npmScriptText(workspace, argv)).toBe(
        `npm finds the workspaces ${FOUND} from package.json (sha256 ${root}) · ${each}`,
      );
    }
    expect(npmScriptText(workspace, ["npm", "run", "build", "-ws"])).toBe(
      `npm finds the workspaces ${FOUND} from package.json (sha256 ${root}) · in "@mono/core" (packages/core) · runs the script "tsc -b" · in "util" (packages/util), whose package.json has no script build now`,
    );
  });

  it("--include-workspace-root runs the root's script first", () => {
    write("packages/util/package.json", { name: "util", scripts: { test: "node --test" } });
    const root = write("package.json", { workspaces: ["packages/*"], scripts: { test: "ava" } });
    expect(
      npmScriptText(workspace, ["npm", "test", "-w", "util", "--include-workspace-root"]),
    ).toBe(
      `npm finds the workspaces "util" (packages/util) from package.json (sha256 ${root}) · in the root package · runs the script "ava" · in "util" (packages/util) · runs the script "node --test"`,
    );
  });

  it("a package's script is read in its folder: its files, its own npm run, and the root's .npmrc", () => {
    write("packages/core/package.json", {
      name: "@mono/core",
      scripts: { test: "node t.js && npm run build", build: "sh build.sh" },
    });
    const test = write("packages/core/t.js", "console.log(1)\n");
    const build = write("packages/core/build.sh", "tsc\n");
    write("packages/core/.npmrc", "script-shell=./ignored.sh\n");
    write(".npmrc", "fund=false\n");
    const root = write("package.json", { workspaces: ["packages/core"] });
    expect(npmScriptText(workspace, ["npm", "test", "-w", "@mono/core"])).toBe(
      `npm finds the workspaces "@mono/core" (packages/core) from package.json (sha256 ${root}) · in "@mono/core" (packages/core) · runs the script "node t.js && npm run build" · and node is given packages/core/t.js (sha256 ${test}) · and through npm the script build "sh build.sh" · and sh is given packages/core/build.sh (sha256 ${build}) · under the workspace's .npmrc "fund=false\\n"`,
    );
  });

  it("a root script that runs npm test -ws binds each package's script; a package's own -w is refused", () => {
    const root = monorepo();
    write("package.json", { workspaces: ["packages/*"], scripts: { test: "npm test -ws" } });
    const rootNow = write("package.json", {
      workspaces: ["packages/*"],
      scripts: { test: "npm test -ws" },
    });
    expect(rootNow).not.toBe(root);
    expect(npmScriptText(workspace, ["npm", "test"])).toBe(
      `runs the script "npm test -ws" · npm finds the workspaces ${FOUND} from package.json (sha256 ${rootNow}) · in "@mono/core" (packages/core) · runs the script "vitest run" · and npm runs pretest "tsc" around it · in "util" (packages/util) · runs the script "node --test"`,
    );
    write("packages/util/package.json", { name: "util", scripts: { test: "npm test -w x" } });
    expect(() => npmScriptText(workspace, ["npm", "test", "-w", "util"])).toThrow(
      "a script of packages/util runs npm with workspace flags, which npm resolves from that folder",
    );
  });

  it("a shell command of one npm form, or one piped, binds as the argv does", () => {
    monorepo();
    const argv = npmScriptText(workspace, ["npm", "test", "-w", "@mono/core"]);
    expect(shellTextReach(workspace, "npm test -w @mono/core")).toBe(argv);
    expect(shellTextReach(workspace, "npm test -w @mono/core 2>&1 | tail -5")).toContain(
      'runs the script "vitest run"',
    );
  });

  it("an allowlist entry with -w is not refused whatever the workspace holds", () => {
    expect(argvRefusal(["npm", "test", "-w", "@mono/core"])).toBeUndefined();
  });
});

describe("what cannot be said exactly stays unbindable", () => {
  it.each([
    [["npm", "test", "-w", "@mono/nope"], 'no npm workspace is "@mono/nope"'],
    [["npm", "test", "-w", "packages/nope"], 'no npm workspace is "packages/nope"'],
    [["npm", "test", "-w", "packages/*"], 'npm reads -w "packages/*" as a pattern'],
    [["npm", "test", "-w", "."], `-w "." names the workspace's top folder`],
  ])("%j", (argv, reason) => {
    monorepo();
    const call = (): unknown => npmScriptText(workspace, argv);
    expect(call).toThrow(UnbindableCommandError);
    expect(call).toThrow(reason);
  });

  it("an unknown name says which workspaces there are", () => {
    monorepo();
    expect(() => npmScriptText(workspace, ["npm", "test", "-w", "@mono/nope"])).toThrow(
      `no npm workspace is "@mono/nope" (package.json's workspaces are ${FOUND}), so npm runs nothing; give -w a workspace's name or folder`,
    );
  });

  it("two workspaces of one name (npm refuses them)", () => {
    monorepo();
    write("packages/copy/package.json", { name: "util" });
    expect(() => npmScriptText(workspace, ["npm", "test", "-w", "@mono/core"])).toThrow(
      'two npm workspaces are named "util" (packages/copy and packages/util), which npm refuses',
    );
  });

  it.each([
    [["packages/core-*"], "only a literal name, `*` or `**` is expanded as a segment"],
    [["packages/{core,util}"], "only a literal name"],
    [["packages/*", "!packages/util"], "it excludes folders"],
    [["../elsewhere/*"], 'its segment ".." is not a folder\'s name'],
    [["**"], "it matches the root folder itself"],
  ])("a workspaces pattern %j", (patterns, why) => {
    monorepo(patterns);
    expect(() => npmScriptText(workspace, ["npm", "test", "-w", "@mono/core"])).toThrow(
      `package.json's workspaces pattern`,
    );
    expect(() => npmScriptText(workspace, ["npm", "test", "-w", "@mono/core"])).toThrow(why);
  });

  it("a workspaces field npm cannot read, or none", () => {
    monorepo({ packages: "packages/*" });
    expect(() => npmScriptText(workspace, ["npm", "test", "-ws"])).toThrow(
      "package.json's workspaces is not a list of folder patterns",
    );
    write("package.json", { name: "mono" });
    expect(() => npmScriptText(workspace, ["npm", "test", "-ws"])).toThrow(
      "package.json names no npm workspace now, so npm runs nothing",
    );
  });

  it("a workspace folder that is a symbolic link is not followed", () => {
    monorepo();
    write("elsewhere/core/package.json", { name: "linked", scripts: { test: "ava" } });
    symlinkSync(join(workspace, "elsewhere/core"), join(workspace, "packages/linked"));
    expect(() => npmScriptText(workspace, ["npm", "test", "-w", "@mono/core"])).toThrow(
      "npm would look for a workspace through packages/linked, a symbolic link",
    );
    rmSync(join(workspace, "packages/linked"));
    // A literal folder on the way is checked too.
    symlinkSync(join(workspace, "elsewhere"), join(workspace, "libs"));
    write("package.json", { workspaces: ["libs/core"] });
    expect(() => npmScriptText(workspace, ["npm", "test", "-w", "linked"])).toThrow(
      "npm would look for a workspace through libs, a symbolic link",
    );
  });

  it("a workspace's package.json that is a link or a FIFO is not read", () => {
    monorepo();
    write("elsewhere.json", { name: "util", scripts: { test: "ava" } });
    rmSync(join(workspace, "packages/util/package.json"));
    symlinkSync(join(workspace, "elsewhere.json"), join(workspace, "packages/util/package.json"));
    const call = (): unknown => npmScriptText(workspace, ["npm", "test", "-w", "@mono/core"]);
    expect(call).toThrow(NpmScriptError);
    expect(call).toThrow(
      "npm would read the workspace's packages/util/package.json, and the harness cannot",
    );
    rmSync(join(workspace, "packages/util/package.json"));
    execFileSync("mkfifo", [join(workspace, "packages/util/package.json")]);
    expect(call).toThrow(NpmScriptError);
  });

  it("the root's .npmrc that sends npm elsewhere is refused with -w too", () => {
    monorepo();
    write(".npmrc", "workspace=util\n");
    expect(() => npmScriptText(workspace, ["npm", "test", "-w", "@mono/core"])).toThrow(
      `the workspace's .npmrc sets "workspace"`,
    );
  });
});
