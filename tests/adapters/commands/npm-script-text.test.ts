import { execFileSync } from "node:child_process";
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { npmScriptText } from "../../../src/adapters/commands/index.js";

const made: string[] = [];
function workspace(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "npm-script-")));
  made.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const PACKAGE = JSON.stringify({ scripts: { test: "vitest run" } });

describe("npmScriptText: what npm will run, or a refusal when the harness cannot see it", () => {
  it("a plain package.json and .npmrc are said in words", () => {
    const ws = workspace();
    writeFileSync(join(ws, "package.json"), PACKAGE);
    writeFileSync(join(ws, ".npmrc"), "fund=false\n");
    expect(npmScriptText(ws, ["npm", "test"])).toBe(
      'runs the script "vitest run" · under the workspace\'s .npmrc "fund=false\\n"',
    );
  });

  it("no package.json: npm runs no script of the model's, nothing to bind", () => {
    expect(npmScriptText(workspace(), ["npm", "test"])).toBeUndefined();
  });

  it("a byte-order mark does not hide the script npm strips it and runs", () => {
    const ws = workspace();
    writeFileSync(join(ws, "package.json"), `\uFEFF${PACKAGE}`);
    expect(npmScriptText(ws, ["npm", "test"])).toBe('runs the script "vitest run"');
  });

  // npm follows a link, reads a huge file and waits on nothing: each of these would let the
  // script npm runs differ from the one (none) the approval was bound to.
  const unreadable: [string, (ws: string, name: string) => void, RegExp][] = [
    [
      "a symbolic link (npm follows it; its target can change after the approval)",
      (ws, name) => {
        writeFileSync(join(ws, "other"), name === "package.json" ? PACKAGE : "x=1\n");
        symlinkSync("other", join(ws, name));
      },
      /symbolic link/,
    ],
    [
      "a dangling symbolic link",
      (ws, name) => {
        symlinkSync("missing", join(ws, name));
      },
      /symbolic link/,
    ],
    [
      "a directory",
      (ws, name) => {
        mkdirSync(join(ws, name));
      },
      /directory/,
    ],
    [
      "a FIFO (read without blocking)",
      (ws, name) => execFileSync("mkfifo", [join(ws, name)]),
      /FIFO/,
    ],
    [
      "over the size the harness reads",
      (ws, name) => {
        writeFileSync(
          join(ws, name),
          name === "package.json"
            ? JSON.stringify({ scripts: { test: "vitest run" }, pad: "x".repeat(300 * 1024) })
            : `x=${"y".repeat(300 * 1024)}\n`,
        );
      },
      /limit/,
    ],
  ];
  for (const name of ["package.json", ".npmrc"]) {
    for (const [what, plant, message] of unreadable) {
      it(`${name} that is ${what}: refused, never "no script"`, () => {
        const ws = workspace();
        if (name !== "package.json") writeFileSync(join(ws, "package.json"), PACKAGE);
        plant(ws, name);
        expect(() => npmScriptText(ws, ["npm", "test"])).toThrow(message);
      });
    }
  }

  it("a package.json npm cannot parse either is refused, not taken as no script", () => {
    const ws = workspace();
    writeFileSync(join(ws, "package.json"), "{");
    expect(() => npmScriptText(ws, ["npm", "test"])).toThrow(/not valid JSON/);
  });

  it("a hard-linked package.json is read: its contents are what the digest binds", () => {
    const ws = workspace();
    writeFileSync(join(ws, "other.json"), PACKAGE);
    linkSync(join(ws, "other.json"), join(ws, "package.json"));
    expect(npmScriptText(ws, ["npm", "test"])).toBe('runs the script "vitest run"');
  });

  it("an argv that is not an npm script run reads nothing", () => {
    const ws = workspace();
    symlinkSync("missing", join(ws, "package.json"));
    expect(npmScriptText(ws, ["node", "--version"])).toBeUndefined();
  });
});
