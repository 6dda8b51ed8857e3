/**
 * Rebuilds a run from its journal: the conversation the model saw, and for the last reply's calls
 * what is known of each. A call whose execution started and never finished is `unknown`: it may
 * have taken effect, so it is never run again blindly.
 */
import type { StoredJournalRecord } from "./journal-records.js";
import { isHostLabel } from "../policy/execution-environment.js";
import { withInterruptedResults } from "./interrupted-calls.js";
import type { Message, ToolCall } from "../ports/messages.js";

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
  const first = records[0];
  if (first?.type !== "run_started") {
    throw new JournalReplayError("the journal does not begin with a run_started record");
  }
  const history: Message[] = [];
  let calls: readonly ToolCall[] = [];
  let results = new Map<string, string>();
  let started = new Set<string>();
  let startedOnHost = new Set<string>();
  let startedReads = new Set<string>();
  let status: RunStatus = "unfinished";
  // By grant id, in the order granted.
  const runGrants = new Map<number, JournaledRunGrant>();
  let runGrantsIssued = 0;
  // A conversation's failed turn leaves the history as the last finished turn left it (a copy:
  // a compaction during the failed turn replaces the history, not what it goes back to).
  let lastFinished: Message[] = [];

  const answerCalls = (): void => {
    for (const call of calls) {
      const content = results.get(call.id);
      if (content === undefined) {
        throw new JournalReplayError(`call ${call.id} has no result before the next step`);
      }
      history.push({ role: "tool", toolCallId: call.id, content });
    }
    calls = [];
    results = new Map();
    started = new Set();
    startedOnHost = new Set();
    startedReads = new Set();
  };

  /** Results for the last reply's calls after a Ctrl-C: recorded, else cancelled or unknown. */
  const answeredAsInterrupted = (): Message[] => {
    const recorded: Message[] = calls.flatMap((call) => {
      const content = results.get(call.id);
      return content === undefined ? [] : [{ role: "tool", toolCallId: call.id, content }];
    });
    return withInterruptedResults([...history, ...recorded], started).slice(history.length);
  };

  for (const record of records) {
    switch (record.type) {
      case "run_started":
        if (record !== first) throw new JournalReplayError("a second run_started record");
        if (record.systemPrompt !== undefined) {
          history.push({ role: "system", content: record.systemPrompt });
        }
        lastFinished = [...history];
        history.push({ role: "user", content: record.prompt });
        break;
      case "user_message":
        if (status === "failed") {
          history.splice(0, history.length, ...lastFinished);
        } else if (status === "cancelled") {
          // As live: a stopped turn stays, its last reply's calls answered as they ended.
          history.push(...answeredAsInterrupted());
        } else {
          answerCalls();
        }
        calls = [];
        results = new Map();
        started = new Set();
        lastFinished = [...history];
        history.push({ role: "user", content: record.content });
        status = "unfinished";
        break;
      case "model_reply":
        answerCalls();
        history.push(record.message);
        calls = record.message.toolCalls;
        break;
      case "execution_started":
        started.add(record.callId);
        if (isHostLabel(record.environment)) startedOnHost.add(record.callId);
        // A read of this machine is run again; a read of another service is not (remote).
        if (record.effect === "read" && record.remote !== true) startedReads.add(record.callId);
        break;
      case "execution_finished":
        if (!calls.some((call) => call.id === record.callId)) {
          throw new JournalReplayError(`a result for call ${record.callId}, which was not asked`);
        }
        results.set(record.callId, record.content);
        break;
      case "history_compacted":
        if (record.reason === "command" || record.reason === "clear") {
          // Between turns (`/compact`, `/clear`): what the next turn starts from, whatever the
          // last turn's end was.
          calls = [];
          results = new Map();
          started = new Set();
          history.splice(0, history.length, ...record.messages);
          lastFinished = [...history];
        } else {
          answerCalls();
          history.splice(0, history.length, ...record.messages);
        }
        break;
      case "run_finished":
        status = "completed";
        lastFinished = [...history];
        break;
      case "run_failed":
        status = "failed";
        break;
      case "run_cancelled":
        status = "cancelled";
        break;
      case "run_waiting":
        status = "waiting";
        break;
      case "run_resumed":
        status = "unfinished";
        break;
      case "conversation_cleared":
        // A legacy `/clear` (journal-records.ts), between turns: what came before stays in the
        // file, not in what the model sees next.
        calls = [];
        results = new Map();
        started = new Set();
        history.length = 0;
        if (first.systemPrompt !== undefined) {
          history.push({ role: "system", content: first.systemPrompt });
        }
        lastFinished = [...history];
        status = "completed";
        break;
      case "run_grant":
        runGrantsIssued = Math.max(runGrantsIssued, record.grant);
        if (record.action === "revoked") runGrants.delete(record.grant);
        else if (record.key !== undefined) {
          runGrants.set(record.grant, {
            id: record.grant,
            toolName: record.tool,
            arguments: record.arguments,
            environment: record.environment,
            key: record.key,
          });
        }
        break;
      case "call_prepared":
      case "decision":
      case "model_switched":
      case "process_started":
      case "file_before":
      case "file_written":
      case "call_undone":
        break;
    }
  }
  return {
    history,
    openCalls: calls.map((call): OpenCall => {
      const content = results.get(call.id);
      if (content !== undefined) return { call, state: "finished", content };
      if (!started.has(call.id)) return { call, state: "not_started" };
      if (startedReads.has(call.id)) return { call, state: "interrupted_read" };
      return startedOnHost.has(call.id)
        ? { call, state: "unknown", onHost: true }
        : { call, state: "unknown" };
    }),
    status,
    prompt: first.prompt,
    runGrants: [...runGrants.values()],
    runGrantsIssued,
  };
}
