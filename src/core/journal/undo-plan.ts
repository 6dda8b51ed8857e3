/**
 * Which calls an undo takes back, read from the run's journal: the newest calls that changed
 * files, newest first, leaving out the ones an earlier undo already took back or passed over
 * (`call_undone` other than `refused`). A read is not looked at; a call newer than those that
 * cannot be undone (a command) or wrote nothing is not counted but named, and says what became of
 * it, so an undo skips nothing silently. A call is its id and its place among the calls with that id (an id can
 * come back in one run), so a repeated id neither hides a call nor takes another's undo.
 */
import type { KeptImage, StoredJournalRecord } from "./journal-records.js";
import type { ToolEffect } from "../tools/tool-definition.js";

/** One write a call made (or was about to make when the process died), as its records say. */
export interface RecordedWrite {
  readonly file: string;
  /** `undefined`: the call created the file. */
  readonly before:
    | {
        readonly sha256: string;
        readonly size: number;
        readonly image?: KeptImage;
        readonly notKept?: string;
      }
    | undefined;
  readonly afterSha256: string;
  /** file_written follows: the bytes landed. Without it the write may or may not have happened. */
  readonly landed: boolean;
  /** The folders the write made for a file it created, outermost first. */
  readonly madeFolders: readonly string[];
}

export interface UndoableCall {
  readonly callId: string;
  /**
   * Which of the run's calls with this id it is: 1 for the first `execution_started` naming the
   * id, 2 for the next. An id can come back in one run (after `/clear` or a compaction the
   * conversation no longer holds it, and some servers number calls per reply), so the id alone
   * does not name a call; the id and this do.
   */
  readonly occurrence: number;
  readonly tool: string;
  readonly effect: ToolEffect | undefined;
  /** The call's arguments as journaled (canonical JSON), to name it: a command's text. */
  readonly arguments: string | undefined;
  /** The tool records each write before it lands: its writes below are all it changed. */
  readonly beforeImages: boolean;
  /** In the order they were made. */
  readonly writes: readonly RecordedWrite[];
}

export interface UndoPlan {
  /**
   * Newest first: the newest calls that changed files, as many as asked for, and every call newer
   * than the last of them that cannot be undone or changed nothing (a test run after an edit), to
   * be named on the way.
   */
  readonly calls: readonly UndoableCall[];
  /** How many of `calls` changed files: what the undo counts. */
  readonly changes: number;
  /** How many the undo asked for. */
  readonly asked: number;
}

export function planUndo(records: readonly StoredJournalRecord[], count: number): UndoPlan {
  type Call = UndoableCall & { writes: RecordedWrite[] };
  /** Every call that ran and was not a read, in the order they started. */
  const calls: Call[] = [];
  /** Per call id, how many `execution_started` records (reads too) name it so far. */
  const started = new Map<string, number>();
  /**
   * Per call id, the newest call under it that was not a read: the writes that follow are its
   * own, and a call_undone without `occurrence` meant it.
   */
  const newest = new Map<string, Call>();
  const prepared = new Map<string, string>();
  const passed = new Set<Call>();
  for (const record of records) {
    switch (record.type) {
      case "call_prepared":
        prepared.set(record.callId, record.canonicalArguments);
        break;
      case "execution_started": {
        const occurrence = (started.get(record.callId) ?? 0) + 1;
        started.set(record.callId, occurrence);
        if (record.effect === "read") break;
        const call: Call = {
          callId: record.callId,
          occurrence,
          tool: record.tool,
          effect: record.effect,
          arguments: prepared.get(record.callId),
          beforeImages: record.beforeImages === true,
          writes: [],
        };
        calls.push(call);
        newest.set(record.callId, call);
        break;
      }
      case "file_before":
        newest.get(record.callId)?.writes.push({
          file: record.file,
          before: record.existed
            ? {
                sha256: record.beforeSha256 ?? "",
                size: record.beforeSize ?? 0,
                ...(record.image === undefined ? {} : { image: record.image }),
                ...(record.notKept === undefined ? {} : { notKept: record.notKept }),
              }
            : undefined,
          afterSha256: record.afterSha256,
          landed: false,
          madeFolders: record.madeFolders ?? [],
        });
        break;
      case "file_written": {
        const writes = newest.get(record.callId)?.writes;
        const index = writes?.findLastIndex((write) => write.file === record.file) ?? -1;
        const write = writes?.[index];
        if (writes !== undefined && write !== undefined) writes[index] = { ...write, landed: true };
        break;
      }
      case "call_undone": {
        if (record.result === "refused") break;
        // Without `occurrence` (written before ids could be told apart) it meant the newest
        // call under its id, the only one an undo of that time could see.
        const call =
          record.occurrence === undefined
            ? newest.get(record.callId)
            : calls.find(
                (each) => each.callId === record.callId && each.occurrence === record.occurrence,
              );
        if (call !== undefined) passed.add(call);
        break;
      }
      // The rest say nothing of what a call changed.
      case "run_started":
      case "user_message":
      case "model_reply":
      case "decision":
      case "process_started":
      case "execution_finished":
      case "history_compacted":
      case "run_resumed":
      case "model_switched":
      case "run_grant":
      case "run_finished":
      case "run_failed":
      case "run_cancelled":
      case "run_waiting":
      case "conversation_cleared":
        break;
    }
  }
  // `/undo` after an edit and a test run means the edit: the run is named and passed over. A call
  // no change comes before is not named (nor journaled as passed over): nothing is undone there.
  const chosen: UndoableCall[] = [];
  let changes = 0;
  for (const call of calls.filter((each) => !passed.has(each)).reverse()) {
    if (changes === count) break;
    chosen.push(call);
    if (changesFiles(call)) changes += 1;
  }
  const lastChange = chosen.findLastIndex(changesFiles);
  return { calls: chosen.slice(0, lastChange + 1), changes, asked: count };
}

/** A call whose writes an undo can take back: a file tool that recorded what it wrote. */
function changesFiles(call: UndoableCall): boolean {
  return call.beforeImages && call.writes.length > 0;
}
