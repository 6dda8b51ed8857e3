import { mkdir, mkdtemp, readdir, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runsCommand } from "../../../src/cli/commands/runs.js";
import { runCapturedSubcommand, type CapturedRun } from "../../support/captured-subcommand.js";

/**
 * `agent runs` shows the newest 20 runs unless asked for more (issue 32): a workspace with a
 * thousand runs must list as fast as one with ten, so only the journals shown are read.
 */
describe("agent runs, newest first, 20 unless asked for more", () => {
  let base: string;
  let ws: string;
  let state: string;

  beforeEach(async () => {
    base = await mkdtemp(join(await realpath(tmpdir()), "runs-limit-"));
    ws = join(base, "ws");
    state = join(base, "state");
    await mkdir(ws);
  });

  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  function agentRuns(...args: string[]): Promise<CapturedRun> {
    return runCapturedSubcommand(runsCommand, ["--workspace", ws, "--state-dir", state, ...args], {
      home: base,
      cwd: ws,
    });
  }

  /** Run i (1-based) started on day i of January 2026, so ids sort by i. */
  function runId(day: number): string {
    return `202601${String(day).padStart(2, "0")}T000000Z-0000ab${String(day).padStart(2, "0")}`;
  }

  /** `count` runs; the older ones are not journals at all, so reading one would show it. */
  async function makeRuns(count: number, readable: number): Promise<void> {
    expect((await agentRuns()).err).toContain("no runs in");
    const workspaces = join(state, "workspaces");
    const [only] = await readdir(workspaces);
    const runs = join(workspaces, only ?? "", "runs");
    for (let day = 1; day <= count; day += 1) {
      const record = {
        v: 1,
        time: `2026-01-${String(day).padStart(2, "0")}T00:00:00.000Z`,
        type: "run_started",
        prompt: `task ${day}`,
        runId: runId(day),
        workspace: ws,
        chapter: 3,
      };
      const text = day > count - readable ? `${JSON.stringify(record)}\n` : "not a journal\n";
      await writeFile(join(runs, `${runId(day)}.jsonl`), text);
    }
  }

  const row = (day: number): string =>
    `${runId(day)}  2026-01-${String(day).padStart(2, "0")}T00:00:00Z  unfinished  task ${day}\n`;

  it("shows the newest 20, reads no older journal, and says how many there are", async () => {
    await makeRuns(25, 20);
    const { code, out, err } = await agentRuns();
    expect(code).toBe(0);
    const days = Array.from({ length: 20 }, (_, index) => 25 - index);
    expect(out).toBe(days.map(row).join(""));
    expect(out).not.toContain("unreadable");
    expect(err).toBe("agent: the newest 20 of 25 runs; --all shows every one\n");
  });

  it("shows every run with --all, and as many as asked with --limit", async () => {
    await makeRuns(22, 22);
    const all = await agentRuns("--all");
    expect(all.out.split("\n").filter(Boolean)).toHaveLength(22);
    expect(all.err).toBe("");
    const three = await agentRuns("--limit", "3");
    expect(three.out).toBe([22, 21, 20].map(row).join(""));
    expect(three.err).toBe("agent: the newest 3 of 22 runs; --all shows every one\n");
    const more = await agentRuns("--limit", "50");
    expect(more.out.split("\n").filter(Boolean)).toHaveLength(22);
    expect(more.err).toBe("");
  });

  it.each([["0"], ["007x"], ["2.5"], ["many"], [""]])("refuses --limit %j", async (limit) => {
    const { code, out, err } = await agentRuns("--limit", limit);
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err).toBe("agent: --limit takes a whole number of runs, 1 or more\n");
  });

  it("refuses --limit with --all", async () => {
    const { code, err } = await agentRuns("--all", "--limit", "5");
    expect(code).toBe(2);
    expect(err).toBe("agent: --limit and --all cannot be used together (see agent runs --help)\n");
  });
});
