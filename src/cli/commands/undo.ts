/**
 * `agent undo [N]`: takes back the file changes of the last call (or the last N) that changed
 * files in this workspace's newest run, or of `--run ID`, from the before-images its journal kept. The run is
 * locked while it is undone (a conversation still working on it refuses). Exit 0 when nothing was
 * refused, 1 when a file was left as it is (it changed since the call, or leads elsewhere now).
 */
import { parseArgs } from "node:util";
import { firstLineOfError } from "../../core/common/one-line.js";
import { isRunId, undoStoredRun } from "../../bootstrap.js";
import { defaultWorkspace } from "../args.js";
import type { CliIo } from "../cli-io.js";
import { EXIT } from "../exit-codes.js";
import { subcommandParseError } from "../subcommand-args.js";
import { resolveWorkspace } from "../settings/workspace.js";
import { UNDO_COUNT } from "../terminal/input/undo-command.js";
import { sayAgent } from "../terminal/render/agent-line.js";
import { writeUndoReport } from "../terminal/render/undo-report.js";

export const UNDO_HELP = `Usage: agent undo [<N>] [--run <run-id>] [--workspace <dir>] [--state-dir <dir>]
                  [--audit-log <file>]

Takes back the file changes of the last call (or the last N calls) that
changed files in this workspace's newest run, or in --run, from the
before-images its journal kept. A file changed since the call is left as it
is, with the reason; a command's effects cannot be undone: one that ran after
them is named, and left as it ran. Each decision is journaled (a
second undo goes on to the call before) and, with --audit-log, audited.
Exit 0, or 1 when a file was left as it is.
  agent undo
  agent undo 3`;

export async function undoCommand(args: readonly string[], io: CliIo): Promise<number> {
  const fail = (message: string): number => {
    sayAgent(io.stderr, message);
    return EXIT.config;
  };
  let parsed: {
    values: { workspace?: string; "state-dir"?: string; run?: string; "audit-log"?: string };
    positionals: string[];
  };
  try {
    parsed = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: true,
      options: {
        workspace: { type: "string" },
        "state-dir": { type: "string" },
        run: { type: "string" },
        "audit-log": { type: "string" },
      },
    });
  } catch (error) {
    return fail(subcommandParseError("undo", error));
  }
  const { values, positionals } = parsed;
  const [countText, ...extra] = positionals;
  if (extra.length > 0 || (countText !== undefined && !UNDO_COUNT.test(countText))) {
    return fail("agent undo takes one number of calls, from 1 to 999 (see agent undo --help)");
  }
  if (values.run !== undefined && !isRunId(values.run)) {
    return fail(`${values.run} is not a run id (agent runs lists them)`);
  }
  try {
    const workspace = resolveWorkspace(values.workspace ?? defaultWorkspace(io.env, io.cwd));
    const { runId, report, olderRunToUndo } = await undoStoredRun({
      workspace,
      stateDir: values["state-dir"],
      host: io,
      runId: values.run,
      auditLog: values["audit-log"] ?? nonEmpty(io.env.AGENT_AUDIT_LOG),
      count: countText === undefined ? 1 : Number(countText),
      onCutTail: (cutBytes) => {
        sayAgent(
          io.stderr,
          `the journal of ${values.run ?? "the newest run"} ends in a record cut off by a crash (${String(cutBytes)} bytes); going on from the last whole record`,
        );
      },
    });
    sayAgent(io.stderr, `undo in run ${runId}`);
    writeUndoReport(io.stderr, report);
    // The newest run may be a read-only follow-up to the one the person means.
    if (olderRunToUndo !== undefined) {
      sayAgent(
        io.stderr,
        `run ${olderRunToUndo} has changes to undo: agent undo --run ${olderRunToUndo}`,
      );
    } else if (report.decisions.length === 0 && values.run === undefined) {
      sayAgent(io.stderr, "an older run's calls: agent undo --run ID (agent runs lists them)");
    }
    return report.decisions.some((decision) => decision.result === "refused")
      ? EXIT.runFailed
      : EXIT.ok;
  } catch (error) {
    return fail(firstLineOfError(error));
  }
}

function nonEmpty(text: string | undefined): string | undefined {
  return text === "" ? undefined : text;
}
