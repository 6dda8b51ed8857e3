/**
 * `agent runs`: this workspace's runs, newest first, one line each: id, start time, status and the
 * first words of the task (escaped: a task is text anyone could have written).
 */
import { parseArgs } from "node:util";
import { firstLineOfError, oneLine } from "../../core/common/one-line.js";
import { defaultWorkspace } from "../args.js";
import type { CliIo } from "../cli-io.js";
import { EXIT } from "../exit-codes.js";
import { resolveWorkspace } from "./run.js";
import { listStoredRuns, openRunStore } from "../../bootstrap/run-store.js";
import { escapeForPrompt } from "../terminal/terminal-text.js";

export const RUNS_HELP = `Usage: agent runs [--workspace <dir>] [--state-dir <dir>] [--json]

Lists this workspace's runs, newest first: id, start time (UTC), status
(running, unfinished, completed, failed, cancelled, waiting) and the task.
Go on with an unfinished one: agent resume [<id>].
--json prints them as one JSON array instead (docs/output-format.md).`;

const PROMPT_WIDTH = 60;

export async function runsCommand(args: readonly string[], io: CliIo): Promise<number> {
  const fail = (message: string): number => {
    io.stderr.write(`agent: ${escapeForPrompt(message)}\n`);
    return EXIT.config;
  };
  // --help never gets here: findSubcommand answers it with RUNS_HELP.
  let values: { workspace?: string; "state-dir"?: string; json?: boolean };
  try {
    values = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        workspace: { type: "string" },
        "state-dir": { type: "string" },
        json: { type: "boolean" },
      },
    }).values;
  } catch (error) {
    return fail(`${firstLineOfError(error)} (see agent runs --help)`);
  }
  try {
    const workspace = await resolveWorkspace(values.workspace ?? defaultWorkspace(io.env, io.cwd));
    const store = openRunStore(values["state-dir"], io, workspace);
    const runs = listStoredRuns(store);
    if (values.json === true) {
      io.stdout.write(`${JSON.stringify(runs)}\n`);
      return EXIT.ok;
    }
    if (runs.length === 0) {
      io.stderr.write(`agent: no runs in ${escapeForPrompt(workspace)} yet\n`);
      return EXIT.ok;
    }
    for (const run of runs) {
      const start = run.startedAt?.replace(/\.\d+Z$/, "Z") ?? "-";
      const what = run.problem ?? oneLine(run.prompt, PROMPT_WIDTH);
      // The whole row, not only the task: every field but the id comes from the journal's text.
      io.stdout.write(
        `${escapeForPrompt(`${run.runId}  ${start}  ${run.status.padEnd(10)}  ${what}`)}\n`,
      );
    }
    return EXIT.ok;
  } catch (error) {
    return fail(firstLineOfError(error));
  }
}
