/**
 * `agent commands` lists an entry every call would refuse while the workspace is as it is now,
 * with a note saying why; a run does not work that out at its start (command-allowlist.ts).
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { commandsCommand } from "../../../src/cli/commands/commands.js";
import { runCapturedSubcommand } from "../../support/captured-subcommand.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/temp-workspace.js";

let temp: TempWorkspace;
beforeEach(async () => {
  temp = await makeTempWorkspace();
});
afterEach(async () => {
  await temp.cleanup();
});

describe("agent commands", () => {
  it("notes an entry refused at every call while the workspace is as it is now", async () => {
    await writeFile(
      join(temp.ws, "package.json"),
      JSON.stringify({ scripts: { test: "node --test test/", lint: "npx eslint ." } }),
    );
    const run = await runCapturedSubcommand(commandsCommand, ["--workspace", temp.ws], {
      home: temp.base,
      cwd: temp.ws,
    });
    expect(run).toEqual({
      code: 0,
      out: [
        '["npm","test"]  package.json scripts.test',
        '["npm","run","lint"]  package.json scripts.lint',
        'note: package.json scripts.lint ["npm","run","lint"] is refused at every call while the workspace is as it is now: npx runs package scripts or fetched packages that the harness cannot show or bind to an approval; only `npm test` and `npm run <name>` (optionally with `-w`/`--workspace`, `-ws` or `--include-workspace-root`, and followed by `--` and arguments for the script) are bound to what they run',
        "",
      ].join("\n"),
      err: "",
    });
  });
});
