/**
 * What the write-ahead journal holds, one record per step of a run, each on disk before the step it
 * describes takes effect. The core says what happened; the journal adapter adds the version, the
 * time, the run's context (profile, model, workspace, policy) and the arguments' SHA-256.
 */
import type { CompactionReason } from "../context/context-keeper.js";
import type { AssistantMessage, Message } from "../ports/messages.js";
import type { TokenUsage } from "../ports/model.js";
import type { ToolEffect } from "../tools/tool-definition.js";
import type { ToolOutcome } from "../tools/tool-outcome.js";

/** Bumped when a record changes shape; a reader refuses a version it does not know. */
export const JOURNAL_VERSION = 1;

export type JournalRecord =
  /** The run's first record: the system prompt and the task, as the model will see them. */
  | { readonly type: "run_started"; readonly systemPrompt?: string; readonly prompt: string }
  /** A conversation's next line (the task itself is in run_started). */
  | { readonly type: "user_message"; readonly content: string }
  | {
      readonly type: "model_reply";
      readonly message: AssistantMessage;
      readonly usage?: TokenUsage;
    }
  /** A call that passed lookup and its schema: its validated arguments as canonical JSON. */
  | {
      readonly type: "call_prepared";
      readonly callId: string;
      readonly tool: string;
      readonly canonicalArguments: string;
    }
  | {
      readonly type: "decision";
      readonly callId: string;
      readonly behavior: string;
      readonly source: string;
      readonly reason: string;
      /** What the decision covers (seed 004); absent in journals written before it. */
      readonly scope?: string;
    }
  /**
   * Written just before the handler runs: from here on, the side effect may have happened. The
   * recovery record: `operationId` is reserved here, before anything runs, and handed to the tool
   * as its idempotency key (seed 004), so a later tool with a remote effect can be queried or
   * compensated by it; absent only in journals written before it existed.
   */
  | {
      readonly type: "execution_started";
      readonly callId: string;
      readonly tool: string;
      /**
       * The tool's effect, so a recovery can decide by the tool's nature (seed 004): a read that
       * was interrupted is run again; anything else may have taken effect. Absent in older
       * journals, whose interrupted calls all stay unknown.
       */
      readonly effect?: ToolEffect;
      /** The tool acts on another service: even a read of it is not run again (seed 004). */
      readonly remote?: true;
      /** Each write of the call has its file_before first: without one, it changed no file. */
      readonly beforeImages?: true;
      readonly operationId?: string;
      readonly environment?: string;
      readonly finalArguments?: Readonly<Record<string, string | number | boolean>>;
    }
  /**
   * The process a call started, once it exists (it cannot be written before): the sandbox's (or on
   * the host the shell's) process id, for whoever recovers the run. Best effort: a crash between
   * the spawn and this record leaves only execution_started, which already reads as unknown.
   */
  | {
      readonly type: "process_started";
      readonly callId: string;
      readonly operationId: string;
      readonly pid: number;
    }
  /** Every call's end, whether it ran or not: its outcome and the tool result the model gets. */
  | {
      readonly type: "execution_finished";
      readonly callId: string;
      readonly outcome: ToolOutcome;
      readonly content: string;
    }
  /**
   * A file tool's write, before it lands: what the file held (SHA-256, size, and where its bytes
   * are kept beside the journal) and what it will hold. Durable before the file is touched, so
   * `/undo` can put it back even after a crash between this record and the write.
   */
  | {
      readonly type: "file_before";
      readonly callId: string;
      /** Workspace-relative, `/`-separated, links resolved. */
      readonly file: string;
      readonly existed: boolean;
      readonly beforeSha256?: string;
      readonly beforeSize?: number;
      /** Where the before-image's bytes are, in the run's images file. */
      readonly image?: KeptImage;
      /** Why the before-image's bytes were not kept (too large): this write cannot be undone. */
      readonly notKept?: string;
      readonly afterSha256: string;
      readonly afterSize: number;
      /** The folders the write made for the file, outermost first: an undo removes them empty. */
      readonly madeFolders?: readonly string[];
    }
  /** The write of a file_before landed, holding these bytes. */
  | {
      readonly type: "file_written";
      readonly callId: string;
      readonly file: string;
      readonly sha256: string;
    }
  /**
   * `/undo` or `agent undo` looked at this call: what became of it. Written after the files were
   * put back, so a crash in between leaves the call to a second undo, which finds them as before.
   */
  | {
      readonly type: "call_undone";
      readonly callId: string;
      /**
       * Which of the run's calls with this id (1: the first `execution_started` naming it): an id
       * can come back in one run. Absent in records written before it, which mean the newest call
       * with this id that was not a read, before the record.
       */
      readonly occurrence?: number;
      readonly tool: string;
      readonly result: UndoResult;
      readonly detail: string;
    }
  /**
   * The history was replaced (a compaction, or `/clear`): from here on it is `messages`, exactly.
   * Written before the replacement takes effect; the records before it keep every original.
   */
  | {
      readonly type: "history_compacted";
      readonly reason: CompactionReason;
      readonly messages: readonly Message[];
    }
  /** `agent resume` picked the run up again. */
  | { readonly type: "run_resumed" }
  /** `/model NAME` in a conversation: the next turns ask this model. */
  | { readonly type: "model_switched"; readonly model: string }
  /**
   * `a` at `[y/N/a]`: exactly this action is allowed for the rest of this run (granted), or no
   * longer (revoked, by `/permissions`). Written before the grant takes effect. `agent resume` of
   * this run holds again each grant not revoked, by its `key`; no other run reads them.
   */
  | {
      readonly type: "run_grant";
      readonly action: "granted" | "revoked";
      readonly grant: number;
      readonly tool: string;
      readonly arguments: string;
      readonly environment?: string;
      /**
       * Everything that makes the action this action (run-grants.ts `keyOf`), as it was granted:
       * a resume allows only the very same. Absent in older journals: such a grant is not held.
       */
      readonly key?: string;
    }
  | { readonly type: "run_finished"; readonly finalText: string }
  | { readonly type: "run_failed"; readonly error: string }
  | { readonly type: "run_cancelled" }
  /** The run stopped for a person's later approval of one call (chapter 4). */
  | {
      readonly type: "run_waiting";
      readonly callId: string;
      readonly request: Readonly<Record<string, unknown>>;
    };

export type JournalRecordType = JournalRecord["type"];

/** Where a before-image's bytes are kept: a span of the run's images file. */
export interface KeptImage {
  readonly offset: number;
  readonly length: number;
}

/**
 * What an undo made of a call. `restored`, `unchanged` (its files already as before) and
 * `not_undoable` take it off what the next undo looks at; `refused` leaves it there.
 */
export const UNDO_RESULTS = ["restored", "unchanged", "not_undoable", "refused"] as const;
export type UndoResult = (typeof UNDO_RESULTS)[number];

/**
 * A record older journals hold and nothing writes any more: `conversation_cleared` was the
 * conversation's own `/clear`, before there was one `/clear` (now `history_compacted` with reason
 * `clear`). `agent resume` still reads it.
 */
export interface LegacyJournalRecord {
  readonly type: "conversation_cleared";
}

/** What a journal file may hold: every record written now, and the legacy ones. */
export type StoredJournalRecord = JournalRecord | LegacyJournalRecord;

/**
 * How long `append` may wait. By default a record is durable before `append` resolves. A record
 * marked `effectFree` precedes only steps that change nothing outside the harness (a model reply,
 * a local read and its decision and result): it is written before `append` resolves (a process
 * that dies keeps it) and flushed in the background, and every record is durable before the next
 * record that is not `effectFree` resolves and before the journal closes (docs/run-journal.md,
 * "Group flushes").
 */
export interface AppendOptions {
  readonly effectFree?: boolean;
}

/** The journal port: `append` resolves once the record is durable (or, `effectFree`, written), and throws otherwise. */
export interface RunJournal {
  append(record: JournalRecord, options?: AppendOptions): Promise<void>;
  /**
   * Bytes the journal can still take for a step's records (the closing records have their own
   * reserve); absent when it has no limit. The loop bounds each model reply by it.
   */
  spaceLeft?(): number;
  /**
   * Keeps a before-image's bytes beside the journal, durably, and says where; or why not (over
   * the size an undo keeps). Absent: the journal keeps none, and such writes cannot be undone.
   */
  keepImage?(bytes: Uint8Array): Promise<KeptImage | { readonly notKept: string }>;
}
