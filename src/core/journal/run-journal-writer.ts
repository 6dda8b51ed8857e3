/**
 * The runner's journal, one method per step it records, so the tool path names its steps instead of
 * spelling out record shapes. A step's record is durable before the step (fail closed, see
 * run-journaling.ts); the records that close a run or a call stopped by Ctrl-C are best effort.
 * A model reply's record, and those of a call that changes nothing (a local read, or a call that
 * never ran), are `effectFree`: written before their step and flushed together, on disk before any
 * step with an effect (docs/run-journal.md, "Group flushes").
 */
import { canonicalJson } from "../common/canonical-json.js";
import type { RunWaitingError } from "../common/agent-errors.js";
import type { AppendOptions, JournalRecord, KeptImage, RunJournal } from "./journal-records.js";
import { JournalWriteError } from "../common/agent-errors.js";
import type { CompactionReason } from "../context/context-keeper.js";
import type { AssistantMessage, Message, ToolCall } from "../ports/messages.js";
import type { TokenUsage } from "../ports/model.js";
import { firstLineOfError } from "../common/one-line.js";
import { THIS_CALL_ONLY, type PermissionDecision } from "../policy/permission-decision.js";
import type { PreparedToolCall } from "../tools/prepared-tool-call.js";
import { changesNothing } from "../tools/tool-definition.js";
import { journalClosing, journalStep } from "./run-journaling.js";
import type { ToolOutcome } from "../tools/tool-outcome.js";
import type { PlannedWrite, WriteRecorder } from "../ports/filesystem.js";

/** A call's write recorder, and the journal failure it met, for the loop to stop the run with. */
export interface WriteRecording {
  readonly recorder: WriteRecorder;
  throwIfFailed(): void;
}

const EFFECT_FREE: AppendOptions = Object.freeze({ effectFree: true });

/** Only the effect-free records carry options, so a journal that takes none sees none. */
function stepOf(effectFree: boolean): AppendOptions | undefined {
  return effectFree ? EFFECT_FREE : undefined;
}

export class RunJournalWriter {
  readonly #journal: RunJournal | undefined;
  /** The journal has its run_started: a later turn (even after a failed first one) is a user_message. */
  #started = false;

  constructor(journal: RunJournal | undefined) {
    this.#journal = journal;
  }

  /** A run's first turn is its run_started; each later turn of a conversation a user_message. */
  async turnStarted(prompt: string, systemPrompt: string | undefined): Promise<void> {
    if (this.#started) {
      await journalStep(this.#journal, { type: "user_message", content: prompt });
      return;
    }
    await journalStep(this.#journal, {
      type: "run_started",
      ...(systemPrompt === undefined ? {} : { systemPrompt }),
      prompt,
    });
    this.#started = true;
  }

  /** `agent resume`: the journal already has its run_started, so later turns are user_messages. */
  resumed(): Promise<void> {
    this.#started = true;
    return journalStep(this.#journal, { type: "run_resumed" });
  }

  /** Bytes the journal can still take; unbounded without a journal, or one with no limit. */
  spaceLeft(): number {
    return this.#journal?.spaceLeft?.() ?? Number.POSITIVE_INFINITY;
  }

  /** Effect-free: the reply's calls are prepared and decided next, and each flushes before it acts. */
  modelReply(message: AssistantMessage, usage: TokenUsage | undefined): Promise<void> {
    return journalStep(
      this.#journal,
      { type: "model_reply", message, ...(usage === undefined ? {} : { usage }) },
      EFFECT_FREE,
    );
  }

  /** A new history: before the run's first record there is nothing to replace, so nothing is written. */
  async historyCompacted(messages: readonly Message[], reason: CompactionReason): Promise<void> {
    if (!this.#started) return;
    await journalStep(this.#journal, { type: "history_compacted", reason, messages });
  }

  callPrepared(call: ToolCall, prepared: PreparedToolCall): Promise<void> {
    return journalStep(
      this.#journal,
      {
        type: "call_prepared",
        callId: call.id,
        tool: call.name,
        canonicalArguments: canonicalJson(prepared.arguments),
      },
      stepOf(changesNothing(prepared)),
    );
  }

  decision(
    call: ToolCall,
    prepared: PreparedToolCall,
    decision: PermissionDecision,
  ): Promise<void> {
    return journalStep(
      this.#journal,
      {
        type: "decision",
        callId: call.id,
        behavior: decision.behavior,
        source: decision.source,
        reason: decision.reason,
        scope: decision.scope ?? THIS_CALL_ONLY,
      },
      stepOf(changesNothing(prepared)),
    );
  }

  /** From this record on, the call's side effect may have happened; `operationId` is reserved. */
  executionStarted(
    call: ToolCall,
    prepared: PreparedToolCall,
    environment: string | undefined,
    operationId: string,
  ): Promise<void> {
    return journalStep(
      this.#journal,
      {
        type: "execution_started",
        callId: call.id,
        tool: call.name,
        effect: prepared.effect,
        ...(prepared.remote ? { remote: true as const } : {}),
        ...(prepared.beforeImages ? { beforeImages: true as const } : {}),
        operationId,
        ...(environment === undefined ? {} : { environment }),
        ...(prepared.finalArguments === undefined
          ? {}
          : { finalArguments: prepared.finalArguments }),
      },
      stepOf(changesNothing(prepared)),
    );
  }

  /**
   * Where the call's file writes are recorded: the before-image's bytes kept beside the journal,
   * then its file_before, both durable before the write lands; file_written once it has. A record
   * that fails is kept as the recording's `failure`: the loop stops the run with it once the
   * handler returns, as for any step's record (the handler only reports a failed call).
   */
  writeRecorder(call: ToolCall): WriteRecording | undefined {
    const journal = this.#journal;
    if (journal === undefined) return undefined;
    let failure: Error | undefined;
    const remembered = async (step: () => Promise<void>): Promise<void> => {
      try {
        await step();
      } catch (error) {
        failure ??= error instanceof Error ? error : new JournalWriteError(String(error));
        throw error;
      }
    };
    return {
      recorder: {
        beforeWrite: (write: PlannedWrite) =>
          remembered(async () => {
            await journalStep(journal, await this.#fileBefore(journal, call, write));
          }),
        afterWrite: (file: string, sha256: string) =>
          remembered(() =>
            journalStep(journal, { type: "file_written", callId: call.id, file, sha256 }),
          ),
      },
      throwIfFailed: () => {
        if (failure !== undefined) throw failure;
      },
    };
  }

  async #fileBefore(
    journal: RunJournal,
    call: ToolCall,
    write: PlannedWrite,
  ): Promise<JournalRecord> {
    const { before } = write;
    const kept =
      before === undefined
        ? undefined
        : before.bytes === undefined
          ? { notKept: `it held ${String(before.size)} bytes, more than an undo keeps` }
          : await this.#keepImage(journal, before.bytes);
    return {
      type: "file_before",
      callId: call.id,
      file: write.file,
      existed: before !== undefined,
      ...(before === undefined ? {} : { beforeSha256: before.sha256, beforeSize: before.size }),
      ...(kept === undefined
        ? {}
        : "notKept" in kept
          ? { notKept: kept.notKept }
          : { image: kept }),
      afterSha256: write.afterSha256,
      afterSize: write.afterSize,
      ...(write.madeFolders === undefined || write.madeFolders.length === 0
        ? {}
        : { madeFolders: write.madeFolders }),
    };
  }

  async #keepImage(
    journal: RunJournal,
    bytes: Uint8Array,
  ): Promise<KeptImage | { readonly notKept: string }> {
    if (journal.keepImage === undefined) return { notKept: "this run keeps no before-images" };
    try {
      return await journal.keepImage(bytes);
    } catch (error) {
      throw new JournalWriteError(
        `The before-image could not be kept, so the agent stopped before the write: ${firstLineOfError(error)}`,
      );
    }
  }

  /** An undo's decision about one call: after its files were put back (see call_undone). */
  callUndone(record: Extract<JournalRecord, { type: "call_undone" }>): Promise<void> {
    return journalStep(this.#journal, record);
  }

  /** After the spawn, so best effort: the call is already recorded as started. */
  processStarted(call: ToolCall, operationId: string, pid: number): Promise<void> {
    return journalClosing(this.#journal, {
      type: "process_started",
      callId: call.id,
      operationId,
      pid,
    });
  }

  /**
   * `effectFree`: the call ran nothing, or only a local read. The end of a call that had an effect
   * (or may have) is on disk before the run goes on.
   */
  executionFinished(
    call: ToolCall,
    outcome: ToolOutcome,
    content: string,
    effectFree = false,
  ): Promise<void> {
    return journalStep(
      this.#journal,
      { type: "execution_finished", callId: call.id, outcome, content },
      stepOf(effectFree || outcome.executed === "no"),
    );
  }

  /** A call stopped at its prompt by Ctrl-C: the run is ending, so this record is best effort. */
  cancelledCall(call: ToolCall, outcome: ToolOutcome, content: string): Promise<void> {
    return journalClosing(this.#journal, {
      type: "execution_finished",
      callId: call.id,
      outcome,
      content,
    });
  }

  /** The run stops for a later approval: `agent approvals` and resume read the request from here. */
  waiting(error: RunWaitingError): Promise<void> {
    return journalStep(this.#journal, {
      type: "run_waiting",
      callId: error.callId,
      request: error.request,
    });
  }

  finished(finalText: string): Promise<void> {
    return journalStep(this.#journal, { type: "run_finished", finalText });
  }

  cancelled(): Promise<void> {
    return journalClosing(this.#journal, { type: "run_cancelled" });
  }

  failed(error: unknown): Promise<void> {
    return journalClosing(this.#journal, { type: "run_failed", error: firstLineOfError(error) });
  }
}
