/**
 * Which calls an undo takes back, read from the run's journal: the newest calls that ran (any
 * call with `execution_started` that is not a read), newest first, leaving out the ones an earlier
 * undo already took back or passed over (`call_undone` other than `refused`). A read changed
 * nothing and is not counted; every other call is, and says what became of it, so an undo of N
 * skips nothing silently.
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
}

export interface UndoableCall {
  readonly callId: string;
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
  /** Newest first, at most the count asked for. */
  readonly calls: readonly UndoableCall[];
  /** How many the undo asked for. */
  readonly asked: number;
}

export function planUndo(records: readonly StoredJournalRecord[], count: number): UndoPlan {
  const calls = new Map<string, UndoableCall & { writes: RecordedWrite[] }>();
  const prepared = new Map<string, string>();
  const passed = new Set<string>();
  for (const record of records) {
    switch (record.type) {
      case "call_prepared":
        prepared.set(record.callId, record.canonicalArguments);
        break;
      case "execution_started":
        if (record.effect === "read") break;
        calls.set(record.callId, {
          callId: record.callId,
          tool: record.tool,
          effect: record.effect,
          arguments: prepared.get(record.callId),
          beforeImages: record.beforeImages === true,
          writes: [],
        });
        break;
      case "file_before":
        calls.get(record.callId)?.writes.push({
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
        });
        break;
      case "file_written": {
        const writes = calls.get(record.callId)?.writes;
        const index = writes?.findLastIndex((write) => write.file === record.file) ?? -1;
        const write = writes?.[index];
        if (writes !== undefined && write !== undefined) writes[index] = { ...write, landed: true };
        break;
      }
      case "call_undone":
        if (record.result !== "refused") passed.add(record.callId);
        break;
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
  const open = [...calls.values()].filter((call) => !passed.has(call.callId));
  return { calls: open.reverse().slice(0, count), asked: count };
}
