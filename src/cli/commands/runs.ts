/**
 * `agent runs`: this workspace's runs, newest first, one line each: id, start time, status and the
 * first words of the task (escaped: a task is text anyone could have written). The newest 20 unless
 * asked for more: only the journals shown are read, so a workspace with a thousand runs lists as
 * fast as one with ten.
 */
import { sayAgent } from "../terminal/render/agent-line.js";
import { parseArgs } from "node:util";
import { firstLineOfError, oneLine } from "../../core/common/one-line.js";
import { defaultWorkspace } from "../args.js";
import type { CliIo } from "../cli-io.js";
import { EXIT } from "../exit-codes.js";
import { subcommandParseError } from "../subcommand-args.js";
import { resolveWorkspace } from "../settings/workspace.js";
import { countStoredRuns, listStoredRuns, openRunStore } from "../../bootstrap.js";
import { escapeForPrompt } from "../terminal/render/terminal-text.js";
import { cutToCells, usableCells } from "../terminal/render/terminal-cells.js";

/** Runs shown unless asked for more. */
const DEFAULT_LIMIT = 20;

export const RUNS_HELP = `Usage: agent runs [--workspace <dir>] [--state-dir <dir>]
                  [--limit <n> | --all] [--json]

Lists this workspace's runs, newest first: id, start time (UTC), status
(running, open, unfinished, completed, failed, cancelled, waiting) and the task,
under a header line on a terminal (rows only when stdout is piped).
The newest ${DEFAULT_LIMIT} unless --limit or --all asks for more.
Go on with an unfinished one: agent resume [<id>].
--json prints them as one JSON array instead (docs/output-format.md).`;

const PROMPT_WIDTH = 60;
/** Over the rows' columns: a run id is 25 characters, a start time 20, a status padded to 10. */
const RUNS_HEADER = `${"ID".padEnd(25)}  ${"STARTED (UTC)".padEnd(20)}  ${"STATUS".padEnd(10)}  TASK`;

export function runsCommand(args: readonly string[], io: CliIo): number {
  const fail = (message: string): number => {
    sayAgent(io.stderr, message);
    return EXIT.config;
  };
  // --help never gets here: findSubcommand answers it with RUNS_HELP.
  let values: {
    workspace?: string;
    "state-dir"?: string;
    limit?: string;
    all?: boolean;
    json?: boolean;
  };
  try {
    values = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        workspace: { type: "string" },
        "state-dir": { type: "string" },
        limit: { type: "string" },
        all: { type: "boolean" },
        json: { type: "boolean" },
      },
    }).values;
  } catch (error) {
    return fail(subcommandParseError("runs", error));
  }
  const limit = values.all === true ? Number.POSITIVE_INFINITY : parseLimit(values.limit);
  if (limit === undefined) return fail("--limit takes a whole number of runs, 1 or more");
  if (values.all === true && values.limit !== undefined) {
    return fail("--limit and --all cannot be used together (see agent runs --help)");
  }
  try {
    const workspace = resolveWorkspace(values.workspace ?? defaultWorkspace(io.env, io.cwd));
    const store = openRunStore(values["state-dir"], io, workspace);
    const runs = listStoredRuns(store, limit);
    if (values.json === true) {
      io.stdout.write(`${JSON.stringify(runs)}\n`);
      return EXIT.ok;
    }
    if (runs.length === 0) {
      sayAgent(
        io.stderr,
        `no runs in ${workspace} yet (runs are kept per workspace: run this in the folder the agent ran in, or give --workspace)`,
      );
      return EXIT.ok;
    }
    // A person at a terminal reads columns by their names; a script reading stdout gets rows only.
    const terminal = io.stdout.isTTY === true;
    if (terminal) io.stdout.write(`${RUNS_HEADER}\n`);
    // One row per run on a terminal too: a task the terminal wrapped would start a row at column 0.
    const rowCells = terminal ? usableCells(io.stdout.columns) : Number.POSITIVE_INFINITY;
    for (const run of runs) {
      const start = run.startedAt?.replace(/\.\d+Z$/, "Z") ?? "-";
      const what = run.problem ?? oneLine(run.prompt, PROMPT_WIDTH);
      // The whole row, not only the task: every field but the id comes from the journal's text.
      const row = escapeForPrompt(`${run.runId}  ${start}  ${run.status.padEnd(10)}  ${what}`);
      io.stdout.write(`${cutToCells(row, rowCells)}\n`);
    }
    const total = runs.length < limit ? runs.length : countStoredRuns(store);
    if (total > runs.length) {
      sayAgent(io.stderr, `the newest ${runs.length} of ${total} runs; --all shows every one`);
    }
    return EXIT.ok;
  } catch (error) {
    return fail(firstLineOfError(error));
  }
}

/** `--limit`'s value, `DEFAULT_LIMIT` without one; `undefined` for anything but a whole number ≥ 1. */
function parseLimit(text: string | undefined): number | undefined {
  if (text === undefined) return DEFAULT_LIMIT;
  if (!/^[0-9]+$/.test(text)) return undefined;
  const limit = Number(text);
  return limit >= 1 ? limit : undefined;
}
