/**
 * `/undo` and `agent undo`, composed: the run's journal read back, the calls to take back picked
 * (core/journal/undo-plan.ts) and undone (undo-calls.ts) through the file tools' boundary with the
 * run's protected paths, each decision journaled (call_undone) and audited. A conversation undoes
 * in the run it is writing; `agent undo` locks a stored run first, as `agent resume` does.
 */
import { statSync } from "node:fs";
import { JsonlAuditLog } from "../adapters/audit/index.js";
import {
  FileRunJournal,
  imagesPath,
  journalPath,
  readJournalFile,
  readKeptImage,
  runIdsNewestFirst,
  RunJournalError,
} from "../adapters/journal/index.js";
import {
  NodeWorkspaceRestorer,
  WorkspaceOutputStore,
  type HostFilesSource,
} from "../adapters/filesystem/index.js";
import type { RunJournal, StoredJournalRecord } from "../core/journal/journal-records.js";
import { RunJournalWriter } from "../core/journal/run-journal-writer.js";
import { undoCalls, type UndoReport } from "../core/journal/undo-calls.js";
import { planUndo } from "../core/journal/undo-plan.js";
import { harnessPaths } from "./harness-paths.js";
import { hostFilesOnce } from "./host-files.js";
import type { Host } from "./host.js";
import { existingJournal, lockAndReadRun } from "./open/resume-plan.js";
import { openRunStore } from "./open/run-store.js";

export type { UndoDecision, UndoReport } from "../core/journal/undo-calls.js";
export { undoLine } from "../core/journal/undo-calls.js";

export interface UndoInRun {
  /** The run's journal file, read back for what its calls wrote. */
  readonly journalPath: string;
  /** Where the undo's call_undone records go: the run's own journal, open for appending. */
  readonly journal: RunJournal;
  readonly workspace: string;
  readonly harnessFiles: readonly string[];
  readonly hostFiles: HostFilesSource;
  readonly auditLog?: JsonlAuditLog | undefined;
}

/** Takes back the last `count` calls of the run (its records as they are on disk now). */
export function undoInRun(
  run: UndoInRun,
  records: readonly StoredJournalRecord[],
  count: number,
): Promise<UndoReport> {
  const writer = new RunJournalWriter(run.journal);
  const images = imagesPath(run.journalPath);
  return undoCalls(planUndo(records, count), {
    files: new NodeWorkspaceRestorer(run.workspace, {
      harnessFiles: run.harnessFiles,
      hostFiles: run.hostFiles,
    }),
    image: (image, sha256) => readKeptImage(images, image, sha256),
    record: (decision) =>
      writer.callUndone({
        type: "call_undone",
        callId: decision.callId,
        occurrence: decision.occurrence,
        tool: decision.tool,
        result: decision.result,
        detail: decision.detail,
      }),
    audit: (decision) => run.auditLog?.recordUndo(decision),
  });
}

/** The records of a journal this process writes; none before its first record. */
export function recordsOfLiveJournal(path: string): readonly StoredJournalRecord[] {
  // Before its run_started the file is empty: nothing ran, so there is nothing to take back.
  if (statSync(path).size === 0) return [];
  return readJournalFile(path).records;
}

export interface StoredRunUndo {
  readonly workspace: string;
  readonly stateDir: string | undefined;
  readonly host: Host;
  /** `--run ID`; absent: the workspace's newest run. */
  readonly runId?: string | undefined;
  readonly auditLog?: string | undefined;
  readonly count: number;
  /** A last record cut by a crash is dropped first, as resume drops it; the person hears of it. */
  readonly onCutTail: (cutBytes: number) => void;
}

/** How many older runs `agent undo` looks through for one with changes to take back. */
const RUNS_LOOKED_BACK = 20;

/**
 * The newest of the runs before `runId` (at most RUNS_LOOKED_BACK) with a call whose file changes
 * can still be taken back: the run the person likely means when the newest changed nothing (a
 * question asked after the edits). Read only, without the lock: it only names the run.
 */
function olderRunToUndo(runs: string, ids: readonly string[], runId: string): string | undefined {
  for (const older of ids.slice(
    ids.indexOf(runId) + 1,
    ids.indexOf(runId) + 1 + RUNS_LOOKED_BACK,
  )) {
    try {
      if (planUndo(readJournalFile(journalPath(runs, older)).records, 1).changes > 0) return older;
    } catch {
      // A journal that does not read names nothing.
    }
  }
  return undefined;
}

/** `agent undo`: the newest run of the workspace (or the one named), locked while it is undone. */
export async function undoStoredRun(settings: StoredRunUndo): Promise<{
  readonly runId: string;
  readonly report: UndoReport;
  /** With no run named and nothing to undo in the newest: an older run that has something. */
  readonly olderRunToUndo?: string;
}> {
  const { workspace, host } = settings;
  const store = openRunStore(settings.stateDir, host, workspace);
  const ids = runIdsNewestFirst(store.runs);
  const runId = settings.runId ?? ids[0];
  if (runId === undefined)
    throw new RunJournalError(
      `no runs in ${workspace} yet (runs are kept per workspace: run this in the folder the agent ran in, or give --workspace)`,
    );
  const path = existingJournal(store, runId);
  if (path === undefined) throw new RunJournalError(`no run ${runId} in ${workspace}`);
  const { lock, contents } = lockAndReadRun(store, runId, path, settings.onCutTail);
  let journal: FileRunJournal | undefined;
  let auditLog: JsonlAuditLog | undefined;
  try {
    const { start } = contents;
    journal = FileRunJournal.open(path, {
      runId,
      chapter: start.chapter,
      profile: start.profile ?? "",
      model: start.model ?? "",
      workspace: start.workspace,
      policy: "",
      sandbox: start.sandbox ?? "",
      network: start.network ?? false,
    });
    auditLog =
      settings.auditLog === undefined
        ? undefined
        : new JsonlAuditLog({ path: settings.auditLog, chapter: start.chapter, runId });
    const report = await undoInRun(
      {
        journalPath: path,
        journal,
        workspace,
        harnessFiles: harnessPaths({
          auditLog: auditLog?.realPath,
          outputs: WorkspaceOutputStore.open(workspace).realPath,
          stateRoot: store.stateRoot,
        }),
        hostFiles: hostFilesOnce(host, workspace),
        auditLog,
      },
      contents.records,
      settings.count,
    );
    const older =
      settings.runId === undefined && report.decisions.length === 0
        ? olderRunToUndo(store.runs, ids, runId)
        : undefined;
    return { runId, report, ...(older === undefined ? {} : { olderRunToUndo: older }) };
  } finally {
    auditLog?.close();
    journal?.close();
    lock.release();
  }
}
