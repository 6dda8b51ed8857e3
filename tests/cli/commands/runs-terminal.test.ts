import { mkdir, mkdtemp, readdir, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CliIo } from "../../../src/cli/cli-io.js";
import { runsCommand } from "../../../src/cli/commands/runs.js";
import { runCapturedSubcommand } from "../../support/captured-subcommand.js";

const RUN_ID = "20260101T000000Z-0123abcd";
const TASK =
  "Refactor the parser so that every statement keeps its source position for the error messages";

describe("agent runs with a long task", () => {
  let base: string;
  let ws: string;
  let state: string;

  beforeEach(async () => {
    base = await mkdtemp(join(await realpath(tmpdir()), "runs-terminal-"));
    ws = join(base, "ws");
    state = join(base, "state");
    await mkdir(ws);
    // `agent runs` makes the workspace's runs folder; the journal is then put in it.
    await runCapturedSubcommand(runsCommand, ["--workspace", ws, "--state-dir", state], {
      home: base,
      cwd: ws,
    });
    const workspaces = join(state, "workspaces");
    const [only] = await readdir(workspaces);
    const record = {
      v: 1,
      time: "2026-01-01T00:00:00.000Z",
      type: "run_started",
      prompt: TASK,
      runId: RUN_ID,
      workspace: ws,
      chapter: 3,
    };
    await writeFile(
      join(workspaces, only ?? "", "runs", `${RUN_ID}.jsonl`),
      `${JSON.stringify(record)}\n`,
    );
  });

  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it("on an 80-column terminal, cuts each run to one row", async () => {
    const stdout = Object.assign(new PassThrough(), { isTTY: true, columns: 80 });
    let out = "";
    stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
    const io = {
      argv: [],
      env: { HOME: base },
      cwd: ws,
      platform: "linux",
      stdin: Object.assign(new PassThrough(), { isTTY: true }),
      stdout,
      stderr: new PassThrough(),
      interrupts: { on: () => undefined },
    } as unknown as CliIo;
    expect(runsCommand(["--workspace", ws, "--state-dir", state], io)).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    // 79 cells, one short of the width: the `…` is counted as two.
    expect(out).toBe(
      [
        "ID                         STARTED (UTC)         STATUS      TASK",
        `${RUN_ID}  2026-01-01T00:00:00Z  unfinished  Refactor the par…`,
        "",
      ].join("\n"),
    );
  });

  it("piped, cuts the task as before", async () => {
    const run = await runCapturedSubcommand(
      runsCommand,
      ["--workspace", ws, "--state-dir", state],
      { home: base, cwd: ws },
    );
    expect(run.out).toBe(`${RUN_ID}  2026-01-01T00:00:00Z  unfinished  ${TASK.slice(0, 59)}…\n`);
  });
});
