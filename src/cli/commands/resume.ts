/**
 * `agent resume [RUN_ID] [run options]`: goes on with a run from its journal, by default the
 * newest unfinished one of this workspace. The chapter, the model, the workspace, the sandbox and
 * the network are the run's own (resume-settings.ts); the other run options (audit log, endpoint,
 * …) are given again as for a new run.
 */
import { existsSync } from "node:fs";
import {
  dropCutTail,
  isRunId,
  journalPath,
  newestRuns,
  lockPath,
  lockRun,
  readJournalFile,
  type RunLock,
} from "../../adapters/journal/index.js";
import { replayJournal } from "../../core/journal/journal-replay.js";
import { firstLineOfError, oneLine } from "../../core/common/one-line.js";
import { parseCliArgs, type CliOptions } from "../args.js";
import type { CliIo } from "../cli-io.js";
import { EXIT } from "../exit-codes.js";
import { isInteractive, resolveWorkspace, runAgent } from "./run.js";
import { openRunStore } from "../run-store.js";
import { keepRunSettings, sandboxSource } from "../resume-settings.js";
import { escapeForPrompt } from "../terminal/terminal-text.js";

/** Flags that would change what the run is; the journal decides those. */
const FROM_THE_JOURNAL = ["--prompt", "-p", "--chapter", "--model"];

export async function resumeCommand(args: readonly string[], io: CliIo): Promise<number> {
  const say = (message: string): void => {
    io.stderr.write(`agent: ${escapeForPrompt(message)}\n`);
  };
  const fail = (message: string): number => {
    say(message);
    return EXIT.config;
  };
  const fixed = args.find((arg) =>
    FROM_THE_JOURNAL.some((flag) => arg === flag || arg.startsWith(`${flag}=`)),
  );
  if (fixed !== undefined) {
    return fail(
      `agent resume takes ${fixed.split("=")[0] ?? fixed} from the run's journal; leave it out`,
    );
  }
  let options: CliOptions;
  try {
    options = parseCliArgs(args, io.env, io.cwd);
  } catch (error) {
    return fail(`${firstLineOfError(error)} (see --help)`);
  }
  const requested = options.prompt;
  if (requested !== undefined && !isRunId(requested)) {
    return fail(`not a run id: ${JSON.stringify(requested)} (agent runs lists them)`);
  }
  let lock: RunLock | undefined;
  try {
    const workspace = await resolveWorkspace(options.workspace);
    const store = openRunStore(options.stateDir, io, workspace);
    const runId = requested ?? newestUnfinished(store.runs);
    if (runId === undefined)
      return fail(`no unfinished run in ${workspace} to resume (agent runs lists them)`);
    const path = journalPath(store.runs, runId);
    if (!existsSync(path)) return fail(`no run ${runId} in ${workspace} (agent runs lists them)`);
    lock = lockRun(lockPath(store.runs, runId));
    const contents = readJournalFile(path);
    if (contents.cutBytes > 0) {
      say(
        `the journal ${path} ends in a record cut off by a crash (${contents.cutBytes} bytes); going on from the last whole record`,
      );
      dropCutTail(contents);
    }
    const replayed = replayJournal(contents.records);
    // A finished run goes on only as a conversation, on a terminal; piped there is nothing to do.
    if (replayed.status === "completed" && !isInteractive(io)) {
      lock.release();
      return fail(`run ${runId} already completed; nothing to resume`);
    }
    if (contents.start.workspace !== workspace) {
      lock.release();
      return fail(
        `run ${runId} belongs to the workspace ${contents.start.workspace}, not ${workspace}`,
      );
    }
    const chapter = contents.start.chapter;
    if (chapter !== 1 && chapter !== 2 && chapter !== 3 && chapter !== 4) {
      lock.release();
      return fail(`run ${runId} is of chapter ${chapter}, which this agent cannot run`);
    }
    if (chapter < 3 && options.auditLog !== undefined) {
      lock.release();
      return fail(
        `run ${runId} is of chapter ${chapter}, which has no permission policy and keeps no audit: leave out --audit-log (or AGENT_AUDIT_LOG)`,
      );
    }
    const settings = keepRunSettings(runId, contents.start, options, {
      sandbox: sandboxSource(args, io.env),
      network: options.network,
    });
    say(`resuming run ${runId} (${replayed.status}): ${oneLine(replayed.prompt, 60)}`);
    // The provider's model the run used (a replayed run's "model" names a file, not a model).
    const model = contents.start.model;
    const providerModel =
      options.replay === undefined && model !== undefined && !model.startsWith("replay of ");
    const resumed: CliOptions = {
      ...options,
      ...settings,
      prompt: undefined,
      chapter,
      ...(providerModel ? { model } : {}),
    };
    const plan = { runId, path, lock, replayed };
    lock = undefined; // runAgent releases it from here on
    return await runAgent(resumed, io, plan);
  } catch (error) {
    lock?.release();
    return fail(firstLineOfError(error));
  }
}

/** Unfinished (its process died) or waiting (for an approval): never one another process runs. */
function newestUnfinished(runs: string): string | undefined {
  // Newest first, one journal at a time: the search stops at the first one that fits.
  for (const run of newestRuns(runs)) {
    if (run.status === "unfinished" || run.status === "waiting") return run.runId;
  }
  return undefined;
}
