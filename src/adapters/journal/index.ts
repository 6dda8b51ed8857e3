/**
 * The run journal port (core/journal/journal-records.ts) as one append-only JSONL file per run under the
 * workspace's state directory, with the reader, the run lock and the listing `agent runs` and
 * `agent resume` use.
 */
export { FileRunJournal, GROUP_FLUSH_MS, type RunContext } from "./file-run-journal.js";
export {
  dropCutTail,
  readJournalFile,
  replayJournalFile,
  type JournalContents,
  type JournalRead,
  type ReplayedJournal,
} from "./journal-file.js";
export { listRuns, newestRuns, runIdsNewestFirst, type RunSummary } from "./run-list.js";
export {
  isAlive,
  lockRun,
  lockRunSteps,
  RunLockedError,
  type LockStep,
  type RunLock,
} from "./run-lock.js";
export {
  isRunId,
  journalPath,
  lockPath,
  newRunId,
  RunJournalError,
  runsDirectory,
} from "./run-files.js";
export { imagesPath, MAX_IMAGES_BYTES, readKeptImage } from "./image-file.js";
// For scripts/journal-line-shape.ts, which writes the schema as the data the reader checks with.
export { journalLineSchema } from "./journal-schema.js";
