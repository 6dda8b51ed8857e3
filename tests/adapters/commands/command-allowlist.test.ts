import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  CommandAllowlistError,
  loadCommandAllowlist,
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
});
