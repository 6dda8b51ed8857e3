/**
 * Rebuilds a run from its journal: the conversation the model saw, and for the last reply's calls
 * what is known of each. A call whose execution started and never finished is `unknown`: it may
 * have taken effect, so it is never run again blindly.
 */
import type { StoredJournalRecord } from "./journal-records.js";
import { isHostLabel } from "../policy/execution-environment.js";
import { withInterruptedResults } from "./interrupted-calls.js";
import { toolMessage, type Message, type ToolCall } from "../ports/messages.js";

/** `unfinished`: the journal stops mid-run (the process died, or still runs). */
export type RunStatus = "unfinished" | "completed" | "failed" | "cancelled" | "waiting";

/** One call of the last model reply, with what the journal knows of it. */
export type OpenCall =
  | { readonly call: ToolCall; readonly state: "finished"; readonly content: string }
  | {
      readonly call: ToolCall;
      readonly state: "unknown";
      /** It ran on the host: it may still be running (interrupted-calls.ts). */
      readonly onHost?: boolean;
    }
  | { readonly call: ToolCall; readonly state: "not_started" }
  /**
   * A read that started and never finished: it changed nothing, so it is run again on resume,
   * through the whole path (prepare, policy, invoke), like a call that never started (seed 004).
   */
  | { readonly call: ToolCall; readonly state: "interrupted_read" };

export interface ReplayedRun {
  /** The conversation up to and including the last model reply (without its tool results). */
  readonly history: readonly Message[];
  /** The last reply's calls, in order; empty when the history ends with a user turn or an answer. */
  readonly openCalls: readonly OpenCall[];
  readonly status: RunStatus;
  /** The task the run was started with. */
  readonly prompt: string;
  /** The run's grants (`a` at `[y/N/a]`) that were recorded with a key and not revoked. */
  readonly runGrants: readonly JournaledRunGrant[];
  /** The highest grant number the run gave, revoked ones too (0: none): numbers are not reused. */
  readonly runGrantsIssued: number;
  /**
   * The model the last `/model` switch put the run on; undefined when none was journaled (the
   * model it started with is still the one in use).
   */
  readonly switchedModel: string | undefined;
}

/** A run grant as the journal recorded it (run-grants.ts `RunGrant`). */
export interface JournaledRunGrant {
  readonly id: number;
  readonly toolName: string;
  readonly arguments: string;
  readonly environment: string | undefined;
  readonly key: string;
}

/** The journal's records are well-formed one by one but do not make a run. */
export class JournalReplayError extends Error {
  override readonly name = "JournalReplayError";
}

/**
 * The status a record leaves the run in, or `undefined` for a record that leaves it as it was:
 * replayJournal's status is that of the last record with one (`unfinished` when none has).
 */
export function statusSetBy(record: StoredJournalRecord): RunStatus | undefined {
  switch (record.type) {
    case "run_finished":
    case "conversation_cleared":
      return "completed";
    case "run_failed":
      return "failed";
    case "run_cancelled":
      return "cancelled";
    case "run_waiting":
      return "waiting";
    case "run_started":
    case "run_resumed":
    case "user_message":
      return "unfinished";
    case "model_reply":
    case "call_prepared":
    case "decision":
    case "execution_started":
    case "process_started":
    case "execution_finished":
    case "history_compacted":
    case "model_switched":
    case "run_grant":
    case "file_before":
    case "file_written":
    case "call_undone":
      return undefined;
  }
}

export function replayJournal(records: readonly StoredJournalRecord[]): ReplayedRun {
  const replay = new JournalReplay();
  for (const record of records) replay.add(record);
  return replay.result();
}

/**
 * `replayJournal` a record at a time, for a journal read line by line: what a record said is kept
 * only as far as the run needs it, so a long journal's records die young instead of all being
 * held (and copied by the collector) until the last one is read.
 */
export class JournalReplay {
  #first: Extract<StoredJournalRecord, { type: "run_started" }> | undefined;
  readonly #history: Message[] = [];
  #calls: readonly ToolCall[] = [];
  // Emptied, not replaced, at each step: a 999-call run's replay made 5,000 of them.
  readonly #results = new Map<string, string>();
  readonly #started = new Set<string>();
  readonly #startedOnHost = new Set<string>();
  readonly #startedReads = new Set<string>();
  #status: RunStatus = "unfinished";
  // By grant id, in the order granted.
  readonly #runGrants = new Map<number, JournaledRunGrant>();
  #runGrantsIssued = 0;
  #switchedModel: string | undefined;
  // A conversation's failed turn leaves the history as the last finished turn left it (a copy:
  // a compaction during the failed turn replaces the history, not what it goes back to).
  #lastFinished: Message[] = [];

  add(record: StoredJournalRecord): void {
    const history = this.#history;
    if (this.#first === undefined) {
      if (record.type !== "run_started") {
        throw new JournalReplayError("the journal does not begin with a run_started record");
      }
      this.#first = record;
    } else if (record.type === "run_started") {
      throw new JournalReplayError("a second run_started record");
    }
    switch (record.type) {
      case "run_started":
        if (record.systemPrompt !== undefined) {
          history.push({ role: "system", content: record.systemPrompt });
        }
        this.#lastFinished = [...history];
        history.push({ role: "user", content: record.prompt });
        break;
      case "user_message":
        if (this.#status === "failed") {
          history.splice(0, history.length, ...this.#lastFinished);
        } else if (this.#status === "cancelled") {
          // As live: a stopped turn stays, its last reply's calls answered as they ended.
          history.push(...this.#answeredAsInterrupted());
        } else {
          this.#answerCalls();
        }
        this.#forgetCalls();
        this.#lastFinished = [...history];
        history.push({ role: "user", content: record.content });
        this.#status = "unfinished";
        break;
      case "model_reply":
        this.#answerCalls();
        history.push(record.message);
        this.#calls = record.message.toolCalls;
        break;
      case "execution_started":
        this.#started.add(record.callId);
        if (isHostLabel(record.environment)) this.#startedOnHost.add(record.callId);
        // A read of this machine is run again; a read of another service is not (remote).
        if (record.effect === "read" && record.remote !== true) {
          this.#startedReads.add(record.callId);
        }
        break;
      case "execution_finished":
        if (!this.#asked(record.callId)) {
          throw new JournalReplayError(`a result for call ${record.callId}, which was not asked`);
        }
        this.#results.set(record.callId, record.content);
        break;
      case "history_compacted":
        if (record.reason === "command" || record.reason === "clear") {
          // Between turns (`/compact`, `/clear`): what the next turn starts from, whatever the
          // last turn's end was.
          this.#forgetCalls();
          history.splice(0, history.length, ...record.messages);
          this.#lastFinished = [...history];
        } else {
          this.#answerCalls();
          history.splice(0, history.length, ...record.messages);
        }
        break;
      case "run_finished":
        this.#status = "completed";
        this.#lastFinished = [...history];
        break;
      case "run_failed":
        this.#status = "failed";
        break;
      case "run_cancelled":
        this.#status = "cancelled";
        break;
      case "run_waiting":
        this.#status = "waiting";
        break;
      case "run_resumed":
        this.#status = "unfinished";
        break;
      case "conversation_cleared":
        // A legacy `/clear` (journal-records.ts), between turns: what came before stays in the
        // file, not in what the model sees next.
        this.#forgetCalls();
        history.length = 0;
        if (this.#first.systemPrompt !== undefined) {
          history.push({ role: "system", content: this.#first.systemPrompt });
        }
        this.#lastFinished = [...history];
        this.#status = "completed";
        break;
      case "run_grant":
        this.#runGrantsIssued = Math.max(this.#runGrantsIssued, record.grant);
        if (record.action === "revoked") this.#runGrants.delete(record.grant);
        else if (record.key !== undefined) {
          this.#runGrants.set(record.grant, {
            id: record.grant,
            toolName: record.tool,
            arguments: record.arguments,
            environment: record.environment,
            key: record.key,
          });
        }
        break;
      case "model_switched":
        // Journaled before the switch takes effect: the next request, resumed too, uses it.
        this.#switchedModel = record.model;
        break;
      case "call_prepared":
      case "decision":
      case "process_started":
      case "file_before":
      case "file_written":
      case "call_undone":
        break;
    }
  }

  /**
   * The run as the records added leave it: called once, after the last one (the history it hands
   * out is the replay's own). At least the run_started record is needed.
   */
  result(): ReplayedRun {
    const first = this.#first;
    if (first === undefined) {
      throw new JournalReplayError("the journal does not begin with a run_started record");
    }
    const results = this.#results;
    return {
      history: this.#history,
      openCalls: this.#calls.map((call): OpenCall => {
        const content = results.get(call.id);
        if (content !== undefined) return { call, state: "finished", content };
        if (!this.#started.has(call.id)) return { call, state: "not_started" };
        if (this.#startedReads.has(call.id)) return { call, state: "interrupted_read" };
        return this.#startedOnHost.has(call.id)
          ? { call, state: "unknown", onHost: true }
          : { call, state: "unknown" };
      }),
      status: this.#status,
      prompt: first.prompt,
      runGrants: [...this.#runGrants.values()],
      runGrantsIssued: this.#runGrantsIssued,
      switchedModel: this.#switchedModel,
    };
  }

  /** The last reply's calls answered with their results, before the next step. */
  #answerCalls(): void {
    for (const { id } of this.#calls) {
      const content = this.#results.get(id);
      if (content === undefined) {
        throw new JournalReplayError(`call ${id} has no result before the next step`);
      }
      this.#history.push(toolMessage(content, id));
    }
    this.#forgetCalls();
  }

  #forgetCalls(): void {
    this.#calls = [];
    this.#results.clear();
    this.#started.clear();
    this.#startedOnHost.clear();
    this.#startedReads.clear();
  }

  #asked(callId: string): boolean {
    for (const call of this.#calls) if (call.id === callId) return true;
    return false;
  }

  /** Results for the last reply's calls after a Ctrl-C: recorded, else cancelled or unknown. */
  #answeredAsInterrupted(): Message[] {
    const history = this.#history;
    const recorded: Message[] = this.#calls.flatMap((call) => {
      const content = this.#results.get(call.id);
      return content === undefined ? [] : [toolMessage(content, call.id)];
    });
    return withInterruptedResults([...history, ...recorded], this.#started).slice(history.length);
  }
}
