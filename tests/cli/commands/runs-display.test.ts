import { mkdtemp, readdir, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runsCommand } from "../../../src/cli/commands/runs.js";
import { runCapturedSubcommand } from "../../support/captured-subcommand.js";

/**
 * `agent runs` shows what journals say. A journal is a file a command could have written (run with
 * --sandbox off, or on a host without the sandbox): every field shown is attacker text.
 */
describe("agent runs with a crafted journal", () => {
  let base: string;
  let ws: string;
  let state: string;

  beforeEach(async () => {
    base = await mkdtemp(join(await realpath(tmpdir()), "runs-display-"));
    ws = join(base, "ws");
    state = join(base, "state");
    await import("node:fs/promises").then((fs) => fs.mkdir(ws));
  });

  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  async function agentRuns(): Promise<{ code: number; stdout: string; stderr: string }> {
    const run = await runCapturedSubcommand(
      runsCommand,
      ["--workspace", ws, "--state-dir", state],
      { home: base, cwd: ws },
    );
    return { code: run.code, stdout: run.out, stderr: run.err };
  }

  async function runsDirectory(): Promise<string> {
    const workspaces = join(state, "workspaces");
    const [only] = await readdir(workspaces);
    return join(workspaces, only ?? "", "runs");
  }

  it("escapes the start time, and counts its padding, like the task beside it", async () => {
    expect((await agentRuns()).stderr).toContain("no runs in");
    const runId = "20260101T000000Z-0123abcd";
    const time = `\u001b[2J\u001b[H\rfake${" ".repeat(300)}\u009b1m`;
    const record = {
      v: 1,
      time,
      type: "run_started",
      prompt: "Fix the bug",
      runId,
      workspace: ws,
      chapter: 3,
    };
    await writeFile(join(await runsDirectory(), `${runId}.jsonl`), `${JSON.stringify(record)}\n`);
    const { code, stdout } = await agentRuns();
    expect(code).toBe(0);
    expect(stdout).toBe(
      `${runId}  \\u{001b}[2J\\u{001b}[H\\rfake⟨300 spaces⟩\\u{009b}1m  unfinished  Fix the bug\n`,
    );
  });
});
