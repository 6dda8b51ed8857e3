/**
 * `agent resume --output-format json` that finds nothing to resume still gives the script its
 * result object, as a run refused for its configuration does (docs/output-format.md).
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resumeCommand } from "../../../src/cli/commands/resume.js";
import { runCapturedSubcommand } from "../../support/captured-subcommand.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/temp-workspace.js";

let temp: TempWorkspace;
beforeEach(async () => {
  temp = await makeTempWorkspace();
  await mkdir(join(temp.base, "home"));
});
afterEach(async () => {
  await temp.cleanup();
});

describe("agent resume --output-format json with nothing to resume", () => {
  it.each(["json", "stream-json"])(
    "%s: the result object, failed, exit 2, with the error",
    async (format) => {
      const run = await runCapturedSubcommand(resumeCommand, ["--output-format", format], {
        home: join(temp.base, "home"),
        cwd: temp.ws,
        env: { AGENT_STATE_DIR: join(temp.base, "state") },
      });
      const error = `no unfinished run in ${temp.ws} to resume (agent runs lists them; agent resume --last goes on with the newest, whatever its state)`;
      expect(run.code).toBe(2);
      expect(run.err).toBe(`agent: ${error}\n`);
      expect(JSON.parse(run.out)).toEqual({
        type: "result",
        runId: null,
        status: "failed",
        exitCode: 2,
        answer: null,
        error,
        turns: 0,
        calls: [],
        usage: null,
        waiting: null,
      });
    },
  );

  it("text: stdout stays empty", async () => {
    const run = await runCapturedSubcommand(resumeCommand, [], {
      home: join(temp.base, "home"),
      cwd: temp.ws,
      env: { AGENT_STATE_DIR: join(temp.base, "state") },
    });
    expect(run).toMatchObject({ code: 2, out: "" });
  });
});
