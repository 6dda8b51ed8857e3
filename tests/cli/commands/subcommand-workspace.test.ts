import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { runCli } from "../../../src/cli/main.js";
import { scratchDirectories } from "../../support/scratch-directories.js";

/** Runs one subcommand in-process, as `npm run agent -- <word>` from `project` would. */
async function underNpm(word: string, project: string, state: string): Promise<string> {
  const stdout = new PassThrough();
  let shown = "";
  stdout.on("data", (chunk: Buffer) => {
    shown += chunk.toString("utf8");
  });
  const code = await runCli({
    argv: [word],
    env: {
      npm_lifecycle_event: "agent",
      npm_package_name: "agent-harness",
      INIT_CWD: project,
      AGENT_STATE_DIR: state,
    },
    // npm runs the script from the agent's own package root, not where the person typed.
    cwd: process.cwd(),
    platform: process.platform,
    stdin: Object.assign(new PassThrough(), { isTTY: false }),
    stdout,
    stderr: new PassThrough(),
    interrupts: { on: () => undefined },
  });
  expect(code).toBe(0);
  return shown;
}

describe("subcommands under npm run agent", () => {
  const scratch = scratchDirectories("subcommand-workspace-");
  it("work on the directory the person ran npm from, as a run does", async () => {
    const root = realpathSync(scratch());
    const project = join(root, "project");
    mkdirSync(project);
    const state = join(root, "state");
    expect(await underNpm("approvals", project, state)).toBe(`no pending requests in ${project}\n`);
    expect(await underNpm("commands", project, state)).toBe(
      `no allowed commands in ${project}: run_command will refuse every command\nto allow some, give package.json a test, lint, typecheck or build script, or write ${join(project, ".agent", "commands.json")} yourself: {"commands": [{"argv": ["make", "test"], "note": "why"}]} (docs/p04-approvals.md)\n`,
    );
  });
});
