/**
 * `agent resume [RUN_ID] [run options]`: goes on with a run from its journal, by default this
 * workspace's newest when it is unfinished or failed, else its newest unfinished one (resume-plan.ts). The chapter, the model, the workspace, the sandbox and
 * the network are the run's own (resume-settings.ts); the other run options (audit log, endpoint,
 * …) are given again as for a new run.
 */
import type { RunLock } from "../../adapters/journal/index.js";
import {
  existingJournal,
  isRunId,
  lockAndReadRun,
  runToResume,
} from "../../bootstrap/resume-plan.js";
import { replayJournal } from "../../core/journal/journal-replay.js";
import { firstLineOfError, oneLine } from "../../core/common/one-line.js";
import { keepsAudit, profileForChapter } from "../../core/profiles.js";
import { parseCliArgs, type CliOptions } from "../args.js";
import type { CliIo } from "../cli-io.js";
import { EXIT } from "../exit-codes.js";
import { isInteractive, resolveWorkspace, runAgent } from "./run.js";
import { openRunStore } from "../../bootstrap/run-store.js";
import { keepRunSettings, sandboxSource } from "../settings/resume-settings.js";
import { escapeForPrompt } from "../terminal/terminal-text.js";
import { instructionsChangeNotice } from "../../bootstrap/project-instructions.js";
import { defaultWorkspace } from "../args.js";

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
    const workspace = resolveWorkspace(options.workspace);
    const store = openRunStore(options.stateDir, io, workspace);
    const picked = requested === undefined ? runToResume(store) : { runId: requested };
    if (picked === undefined)
      return fail(`no unfinished run in ${workspace} to resume (agent runs lists them)`);
    const { runId, passedOver } = picked;
    if (passedOver !== undefined) {
      say(
        `the newest run ${passedOver.runId} is ${passedOver.status}, so this goes on with the older run ${runId}`,
      );
    }
    const path = existingJournal(store, runId);
    if (path === undefined) {
      return fail(`no run ${runId} in ${workspace} (agent runs lists them)`);
    }
    const locked = lockAndReadRun(store, runId, path, (cutBytes) => {
      say(
        `the journal ${path} ends in a record cut off by a crash (${cutBytes} bytes); going on from the last whole record`,
      );
    });
    lock = locked.lock;
    const contents = locked.contents;
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
    const profile = profileForChapter(chapter);
    if (!keepsAudit(profile) && options.auditLog !== undefined) {
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
    // --- context (issue 26) ---
    const changed = instructionsChangeNotice(
      contents.start.instructionsDigest,
      workspace,
      defaultWorkspace(io.env, io.cwd),
      io,
    );
    if (changed !== undefined) say(changed);
    // --- end context ---
    // The provider's model the run used (a replayed run's "model" names a file, not a model).
    const model = contents.start.model;
    const providerModel =
      options.replay === undefined && model !== undefined && !model.startsWith("replay of ");
    const resumed: CliOptions = {
      ...options,
      ...settings,
      prompt: undefined,
      profile,
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
