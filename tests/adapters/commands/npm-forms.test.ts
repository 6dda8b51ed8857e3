import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { npmScriptText } from "../../../src/adapters/commands/index.js";
import { UnbindableCommandError } from "../../../src/core/grants/unbindable-command.js";
import { authorizeRunCommand } from "../../support/p04-authorize.js";

const made: string[] = [];
function workspace(npmrc?: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "npm-forms-")));
  made.push(dir);
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({
      scripts: { test: "vitest run", pretest: "tsc", lint: "eslint .", install: "sh evil.sh" },
    }),
  );
  if (npmrc !== undefined) writeFileSync(join(dir, ".npmrc"), npmrc);
  return dir;
}
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("npm forms: bound to all the code npm runs, or refused", () => {
  it.each([
    [["npm", "test"], 'runs the script "vitest run" · and npm runs pretest "tsc" around it'],
    [
      ["npm", "test", "--", "--watch=false"],
      'runs the script "vitest run" · and npm runs pretest "tsc" around it',
    ],
    [["npm", "run", "lint"], 'runs the script "eslint ."'],
    [["npm", "run", "lint", "--", "--fix", "src"], 'runs the script "eslint ."'],
  ])("%j binds its script and hooks", (argv, text) => {
    expect(npmScriptText(workspace(), argv)).toBe(text);
  });

  it.each([
    [["npm", "t"], /`npm t` is not a form the harness can bind/],
    [["npm", "tst"], /`npm tst` is not a form/],
    [["npm", "run-script", "lint"], /`npm run-script lint` is not a form/],
    [["npm", "rum", "lint"], /`npm rum lint` is not a form/],
    [["npm", "urn", "lint"], /`npm urn lint` is not a form/],
    [["npm", "run", "lint", "extra"], /`npm run lint extra` is not a form/],
    [["npm", "run"], /`npm run` is not a form/],
    [["npm", "install"], /runs the install scripts of the project and of every package/],
    [["npm", "ci"], /`npm ci` runs the install scripts/],
    [["npm", "i"], /`npm i` runs the install scripts/],
    [["npm", "run", "lint", "--if-present"], /npm flags such as "--if-present"/],
    [["npm", "--prefix", "../other", "test"], /npm flags such as "--prefix"/],
    // This package.json names no workspaces: npm would run nothing (npm-workspaces.test.ts).
    [["npm", "-w", "pkg", "test"], /^package.json names no npm workspace now/],
    [["npm", "test", "--workspace=pkg"], /^package.json names no npm workspace now/],
    [["npm", "test", "-w"], /^npm's -w is given "", not a workspace's name or folder/],
    [["npm", "test", "-w", "--silent"], /^npm's -w is given "--silent"/],
    [["npm", "test", "-w=pkg"], /npm flags such as "-w=pkg"/],
    [["npm", "test", "-iwr", "-ws"], /npm flags such as "-iwr"/],
    [["npm", "test", "--include-workspace-root"], /^--include-workspace-root does nothing without/],
    [["npm", "run", "lint", "--script-shell=./x.sh"], /npm flags such as "--script-shell=.\/x.sh"/],
    [["npm", "test", "--ignore-scripts"], /npm flags such as "--ignore-scripts"/],
    [["npm", "--userconfig=./rc", "test"], /npm flags such as "--userconfig=.\/rc"/],
    [["npm", "run", "--silent", "lint"], /npm flags such as "--silent"/],
    [["npm", "exec", "eslint"], /`npm exec` runs a package's code/],
    [["npm", "x", "eslint"], /`npm x` runs a package's code/],
    [["npx", "eslint", "."], /^npx runs package scripts or fetched packages/],
    [["pnpm", "test"], /^pnpm runs package scripts/],
    [["pnpm", "run", "lint"], /^pnpm runs package scripts/],
    [["yarn", "test"], /^yarn runs package scripts/],
    [["yarn"], /^yarn runs package scripts/],
    [["bun", "run", "lint"], /^bun runs package scripts/],
    [["bunx", "eslint"], /^bunx runs package scripts/],
    [["node", "--run", "test"], /`node --run` runs a package.json script/],
  ])("%j is refused as unbindable, saying why", (argv, reason) => {
    const call = (): unknown => npmScriptText(workspace(), argv);
    expect(call).toThrow(UnbindableCommandError);
    expect(call).toThrow(reason);
  });

  it.each([
    "workspaces=true\n",
    "  Workspace = pkg-a\n",
    "workspace[]=pkg-a\n",
    "include_workspace_root=true\n",
    "prefix=../elsewhere\n",
  ])("a .npmrc that sends npm elsewhere (%j) is refused", (npmrc) => {
    expect(() => npmScriptText(workspace(npmrc), ["npm", "test"])).toThrow(
      /the workspace's .npmrc sets "[a-z-]+", which makes npm run code from other workspaces or folders/,
    );
  });

  it("a commented-out key is only text, bound like the rest", () => {
    expect(
      npmScriptText(workspace("; workspaces=true\nfund=false\n"), ["npm", "run", "lint"]),
    ).toBe(
      'runs the script "eslint ." · under the workspace\'s .npmrc "; workspaces=true\\nfund=false\\n"',
    );
  });

  it("P04 denies an allowlisted unbindable form with command_unbindable, before anyone is asked", () => {
    const ws = workspace();
    const decision = authorizeRunCommand(ws, ["npm", "install"], [["npm", "install"]], (argv) =>
      npmScriptText(ws, argv),
    );
    expect(decision).toEqual({
      behavior: "deny",
      reason: "command_unbindable",
      detail:
        "`npm install` runs the install scripts of the project and of every package it installs, code the harness cannot show or bind; only `npm test` and `npm run <name>` (optionally with `-w`/`--workspace`, `-ws` or `--include-workspace-root`, and followed by `--` and arguments for the script) are bound to what they run",
    });
  });
});
