import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  CommandAllowlistError,
  loadCommandAllowlist,
  refusedNowNotes,
} from "../../../src/adapters/commands/index.js";

const made: string[] = [];
function workspace(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "allowlist-")));
  made.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("loadCommandAllowlist", () => {
  it("takes only the verification scripts of package.json, as npm argv, with their sources", () => {
    const ws = workspace();
    writeFileSync(
      join(ws, "package.json"),
      JSON.stringify({
        scripts: { build: "tsc", test: "vitest", postinstall: "curl x", typecheck: "tsc", lint: 3 },
      }),
    );
    expect(loadCommandAllowlist(ws)).toEqual({
      commands: [
        { argv: ["npm", "test"], source: "package.json scripts.test" },
        { argv: ["npm", "run", "typecheck"], source: "package.json scripts.typecheck" },
        { argv: ["npm", "run", "build"], source: "package.json scripts.build" },
      ],
      notes: [],
    });
  });

  it("no package.json and no .agent: an empty list, no error", () => {
    expect(loadCommandAllowlist(workspace())).toEqual({ commands: [], notes: [] });
  });

  it("a package.json that is not JSON gives nothing, with a note", () => {
    const ws = workspace();
    writeFileSync(join(ws, "package.json"), "{");
    expect(loadCommandAllowlist(ws).notes).toEqual([
      "package.json is not valid JSON: no scripts taken from it",
    ]);
  });

  it("adds .agent/commands.json entries, strictly validated", () => {
    const ws = workspace();
    mkdirSync(join(ws, ".agent"));
    writeFileSync(
      join(ws, ".agent", "commands.json"),
      JSON.stringify({ commands: [{ argv: ["node", "scripts/check.js"], note: "checks" }] }),
    );
    expect(loadCommandAllowlist(ws).commands).toEqual([
      { argv: ["node", "scripts/check.js"], source: ".agent/commands.json #1", note: "checks" },
    ]);
    for (const bad of [
      { commands: [{ argv: [] }] },
      { commands: [{ argv: ["/bin/sh", "-c", "x"] }] },
      { commands: [{ argv: ["npm", "test"], shell: true }] },
      { commands: [["npm", "test"]] },
      { extra: 1, commands: [] },
    ]) {
      writeFileSync(join(ws, ".agent", "commands.json"), JSON.stringify(bad));
      expect(() => loadCommandAllowlist(ws)).toThrow(CommandAllowlistError);
    }
  });

  it("refuses a .agent or commands.json that is a link", () => {
    const ws = workspace();
    const elsewhere = workspace();
    writeFileSync(
      join(elsewhere, "commands.json"),
      JSON.stringify({ commands: [{ argv: ["rm"] }] }),
    );
    symlinkSync(elsewhere, join(ws, ".agent"));
    expect(() => loadCommandAllowlist(ws)).toThrow(
      new CommandAllowlistError(
        ".agent is a symbolic link; the harness does not follow links for its own files",
      ),
    );
    rmSync(join(ws, ".agent"));
    mkdirSync(join(ws, ".agent"));
    symlinkSync(join(elsewhere, "commands.json"), join(ws, ".agent", "commands.json"));
    expect(() => loadCommandAllowlist(ws)).toThrow(
      /Cannot read \.agent\/commands\.json: it is a symbolic link/,
    );
  });

  it.each([
    [["node"], "node is given no file or code of its own, so it runs what reaches its stdin"],
    [["sh", "-c", "eval $X"], "the script uses eval"],
    [["find", ".", "-name", "*.js", "-exec", "node", "{}", ";"], "find -exec runs commands"],
    [["xargs", "-a", "list.txt", "node"], "xargs, which runs commands the harness cannot read"],
    [["make", "-f", "-"], "make -f - reads its makefile from stdin"],
    [["timeout", "60", "npx", "vitest"], "npx runs package scripts or fetched packages"],
  ])(
    "a .agent/commands.json entry refused whatever the workspace holds can never run: %j",
    (argv, reason) => {
      const ws = workspace();
      mkdirSync(join(ws, ".agent"));
      writeFileSync(join(ws, ".agent", "commands.json"), JSON.stringify({ commands: [{ argv }] }));
      const call = (): unknown => loadCommandAllowlist(ws);
      expect(call).toThrow(CommandAllowlistError);
      expect(call).toThrow(`.agent/commands.json #1 ${JSON.stringify(argv)} can never run: `);
      expect(call).toThrow(reason);
    },
  );

  it("an entry whose files are not there, or are directories, is listed: nothing in its argv refuses it", () => {
    const ws = workspace();
    mkdirSync(join(ws, ".agent"));
    mkdirSync(join(ws, "scripts"));
    writeFileSync(join(ws, "scripts", "check.sh"), "echo ok\n");
    const argv = ["node", "--test", "test/"];
    writeFileSync(
      join(ws, ".agent", "commands.json"),
      JSON.stringify({ commands: [{ argv }, { argv: ["bash", "scripts/check.sh"] }] }),
    );
    expect(loadCommandAllowlist(ws).commands.map((entry) => entry.argv)).toEqual([
      argv,
      ["bash", "scripts/check.sh"],
    ]);
  });

  it("a package.json script every call would refuse now is listed with a note saying why", () => {
    const ws = workspace();
    writeFileSync(
      join(ws, "package.json"),
      JSON.stringify({ scripts: { test: "node --test test/", lint: "npx eslint ." } }),
    );
    const allowlist = loadCommandAllowlist(ws);
    expect(allowlist).toEqual({
      commands: [
        { argv: ["npm", "test"], source: "package.json scripts.test" },
        { argv: ["npm", "run", "lint"], source: "package.json scripts.lint" },
      ],
      notes: [],
    });
    // Said by `agent commands`; a run reads the binding again at each call, not at start.
    expect(refusedNowNotes(ws, allowlist.commands)).toEqual([
      'package.json scripts.lint ["npm","run","lint"] is refused at every call while the workspace is as it is now: npx runs package scripts or fetched packages that the harness cannot show or bind to an approval; only `npm test` and `npm run <name>` (optionally with `-w`/`--workspace`, `-ws` or `--include-workspace-root`, and followed by `--` and arguments for the script) are bound to what they run',
    ]);
  });
});
