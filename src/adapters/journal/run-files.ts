/**
 * Where a workspace's runs live: `<workspace state dir>/runs/<runId>.jsonl`, with
 * `<runId>.lock` beside it while a process works on the run.
 */
import { randomBytes } from "node:crypto";
import { lstatSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { errorCode } from "../filesystem/index.js";
import { ConfigurationError } from "../../core/common/configuration-error.js";

export class RunJournalError extends ConfigurationError {
  override readonly name = "RunJournalError";
}

/** Sorts by start time as text: `20261130T234000Z-1a2b3c4d`. */
export function newRunId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\.\d+/, "");
  return `${stamp}-${randomBytes(4).toString("hex")}`;
}

const RUN_ID = /^[0-9]{8}T[0-9]{6}Z-[0-9a-f]{8}$/;

/** A run id from the command line names a file: nothing else (no `..`, no separator) passes. */
export function isRunId(text: string): boolean {
  return RUN_ID.test(text);
}

/** The runs directory, created owner-only; a link or a file in its place is refused. */
export function runsDirectory(workspaceStateDirectory: string): string {
  const path = join(workspaceStateDirectory, "runs");
  try {
    mkdirSync(path, { mode: 0o700 });
  } catch (error) {
    if (errorCode(error) !== "EEXIST") {
      throw new RunJournalError(`cannot create ${path} (${errorCode(error) ?? "error"})`);
    }
  }
  const stats = lstatSync(path);
  if (!stats.isDirectory() || stats.isSymbolicLink()) {
    throw new RunJournalError(`${path} is not a directory; refusing to use it for run journals`);
  }
  return path;
}

export function journalPath(runs: string, runId: string): string {
  return join(runs, `${runId}.jsonl`);
}

export function lockPath(runs: string, runId: string): string {
  return join(runs, `${runId}.lock`);
}
