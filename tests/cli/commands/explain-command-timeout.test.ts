/**
 * `agent explain` builds its tool path from the same settings as the run: the command timeout a
 * flag or the settings file gives is the one the dry run's audit line shows in the call's final
 * arguments, for chapter 3's shell and chapter 4's run_command alike.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { explainCommand } from "../../../src/cli/commands/explain.js";
import { runCapturedSubcommand } from "../../support/captured-subcommand.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/temp-workspace.js";

let temp: TempWorkspace;
let home: string;
beforeEach(async () => {
  temp = await makeTempWorkspace();
  home = join(temp.base, "home");
  await mkdir(join(home, ".config", "agent-harness"), { recursive: true });
  await writeFile(join(temp.ws, "package.json"), JSON.stringify({ scripts: { test: "vitest" } }));
});
afterEach(async () => {
  await temp.cleanup();
});

async function auditLines(args: readonly string[], settings: object): Promise<string[]> {
  await writeFile(
    join(home, ".config", "agent-harness", "settings.json"),
    JSON.stringify(settings),
  );
  const run = await runCapturedSubcommand(
    explainCommand,
    [...args, "--sandbox", "off", "--workspace", temp.ws],
    { home, cwd: temp.ws, env: { PATH: process.env.PATH } },
  );
  expect(run).toMatchObject({ code: 0, err: "" });
  return run.out.split("\n").filter((line) => line.startsWith("audit"));
}

const SHELL = ["shell", '{"command":"npm test"}'];
const RUN_COMMAND = ["run_command", '{"command":"npm","args":["test"]}', "--chapter", "4"];

describe("agent explain shows the command timeout the run would bind", () => {
  it.each([
    ["shell, the flag", [...SHELL, "--command-timeout", "900"], {}, 900_000],
    ["shell, the settings file", SHELL, { commandTimeout: 30 }, 30_000],
    ["shell, the default", SHELL, {}, 120_000],
    ["run_command, the flag", [...RUN_COMMAND, "--command-timeout", "900"], {}, 900_000],
    ["run_command, the settings file", RUN_COMMAND, { commandTimeout: 30 }, 30_000],
  ] as const)("%s", async (_, args, settings, timeoutMs) => {
    const lines = await auditLines(args, settings);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toContain(` timeoutMs=${String(timeoutMs)} `);
  });
});
