/**
 * `agent resume [RUN_ID | --last] [run options]`: goes on with a run from its journal, by default
 * this workspace's newest when it is unfinished, waiting or failed, else its newest unfinished or
 * waiting one; with `--last` (`-c`) its newest whatever its state (resume-plan.ts). The chapter,
 * the model, the workspace, the sandbox and the network are the run's own (resume-settings.ts);
 * the other run options (audit log, endpoint, …) are given again as for a new run.
 */
import { sayAgent } from "../terminal/render/agent-line.js";
import type { RunLock } from "../../adapters/journal/index.js";
import {
  existingJournal,
  isRunId,
  lockAndReplayRun,
  modelInUse,
  newestRun,
  runToResume,
  openRunStore,
  instructionsChangeNotice,
} from "../../bootstrap.js";
import { firstLineOfError, oneLine } from "../../core/common/one-line.js";
import { typedPart } from "../../core/runner/mention-attachments.js";
import { keepsAudit, profileForChapter } from "../../core/profiles.js";
import { CliConfigError } from "../config-error.js";
import type { CliIo } from "../cli-io.js";
import { EXIT } from "../exit-codes.js";
import { runAgent } from "./run.js";
import { ScriptOutput } from "../modes/script-output.js";
import { isInteractive } from "../modes/run-terminal.js";
import { resolveSettings, type RunSettings } from "../settings/resolve-settings.js";
import { resolveWorkspace } from "../settings/workspace.js";
import { defaultWorkspace } from "../args.js";

/** Flags that would change what the run is; the journal decides those. */
const FROM_THE_JOURNAL = ["--prompt", "-p", "--chapter", "--profile", "--model"];

/** Picks the newest run whatever its state; resume's own, so it is taken out before the run options. */
const LAST = ["--last", "-c"];

export async function resumeCommand(allArgs: readonly string[], io: CliIo): Promise<number> {
  const say = (message: string): void => {
    sayAgent(io.stderr, message);
  };
  // Once the options are read, a script that asked for JSON gets its result object, as a run's
  // configuration error gives it (docs/output-format.md).
  let script: ScriptOutput | undefined;
  let failedRun: string | undefined;
  const fail = (message: string): number => {
    say(message);
    script?.finish({ runId: failedRun, status: "failed", exitCode: EXIT.config, error: message });
    return EXIT.config;
  };
  const last = allArgs.some((arg) => LAST.includes(arg));
  const args = allArgs.filter((arg) => !LAST.includes(arg));
  const fixed = args.find((arg) =>
    FROM_THE_JOURNAL.some((flag) => arg === flag || arg.startsWith(`${flag}=`)),
  );
  if (fixed !== undefined) {
    return fail(
      `agent resume takes ${fixed.split("=")[0] ?? fixed} from the run's journal; leave it out`,
    );
  }
  let first: RunSettings;
  try {
    first = resolveSettings(args, io);
  } catch (error) {
    const message = firstLineOfError(error);
    return fail(error instanceof CliConfigError ? `${message} (see --help)` : message);
  }
  // Enough to find the run: its workspace and state directory. The journal then fixes the rest.
  const options = first.options;
  if (options.outputFormat !== "text") script = new ScriptOutput(io.stdout, options.outputFormat);
  const requested = options.prompt;
  if (requested !== undefined && !isRunId(requested)) {
    return fail(`not a run id: ${JSON.stringify(requested)} (agent runs lists them)`);
  }
  if (last && requested !== undefined) {
    return fail("agent resume takes a run id or --last, not both");
  }
  let lock: RunLock | undefined;
  let handedOver = false;
  try {
    const workspace = resolveWorkspace(options.workspace);
    const store = openRunStore(
      options.stateDir,
      { env: first.env, platform: io.platform },
      workspace,
    );
    const picked = pickRun(store, requested, last);
    if (picked === undefined) {
      return fail(
        last
          ? `no run in ${workspace} to resume (agent runs lists them)`
          : `no unfinished run in ${workspace} to resume (agent runs lists them; agent resume --last goes on with the newest, whatever its state)`,
      );
    }
    const { runId, passedOver } = picked;
    failedRun = runId;
    if (passedOver !== undefined) {
      say(
        `the newest run ${passedOver.runId} is ${passedOver.status}, so this goes on with the older run ${runId} (agent resume --last goes on with the newest)`,
      );
    }
    const path = existingJournal(store, runId);
    if (path === undefined) {
      return fail(`no run ${runId} in ${workspace} (agent runs lists them)`);
    }
    const locked = lockAndReplayRun(store, runId, path, (cutBytes) => {
      say(
        `the journal ${path} ends in a record cut off by a crash (${cutBytes} bytes); going on from the last whole record`,
      );
    });
    lock = locked.lock;
    const contents = locked.contents;
    const replayed = contents.replayed;
    // A finished run goes on only as a conversation, on a terminal; piped there is nothing to do.
    if (replayed.status === "completed" && !isInteractive(io)) {
      return fail(`run ${runId} already completed; nothing to resume`);
    }
    if (contents.start.workspace !== workspace) {
      return fail(
        `run ${runId} belongs to the workspace ${contents.start.workspace}, not ${workspace}`,
      );
    }
    const chapter = contents.start.chapter;
    if (chapter !== 1 && chapter !== 2 && chapter !== 3 && chapter !== 4) {
      return fail(`run ${runId} is of chapter ${chapter}, which this agent cannot run`);
    }
    if (!keepsAudit(profileForChapter(chapter)) && options.auditLog !== undefined) {
      return fail(
        `run ${runId} is of chapter ${chapter}, which has no permission policy and keeps no audit: leave out --audit-log (or AGENT_AUDIT_LOG)`,
      );
    }
    const settings = resolveSettings(args, io, {
      runId,
      // The model is the one the run was on last: a `/model` switch outlives the process.
      start: { ...contents.start, chapter, model: modelInUse(contents) },
    });
    say(`resuming run ${runId} (${replayed.status}): ${oneLine(typedPart(replayed.prompt), 60)}`);
    // A change to AGENTS.md is said; the run goes on with the instructions it began with.
    const changed = instructionsChangeNotice(
      contents.start.instructionsDigest,
      workspace,
      defaultWorkspace(io.env, io.cwd),
      { env: settings.env, platform: io.platform },
    );
    if (changed !== undefined) say(changed);
    const plan = { runId, path, lock, replayed };
    handedOver = true; // runAgent releases the lock from here on
    script = undefined; // and prints the run's own result object
    return await runAgent(
      { ...settings.options, prompt: undefined },
      { ...io, env: settings.env },
      plan,
      settings.file.mcpServers,
    );
  } catch (error) {
    return fail(firstLineOfError(error));
  } finally {
    if (!handedOver) lock?.release();
  }
}

/** A named run, the newest whatever its state (`--last`), or the newest that can go on. */
function pickRun(
  store: ReturnType<typeof openRunStore>,
  requested: string | undefined,
  last: boolean,
): ReturnType<typeof runToResume> {
  if (requested !== undefined) return { runId: requested };
  if (!last) return runToResume(store);
  const runId = newestRun(store);
  return runId === undefined ? undefined : { runId };
}
