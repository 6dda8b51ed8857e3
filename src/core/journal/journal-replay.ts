/**
 * Rebuilds a run from its journal: the conversation the model saw, and for the last reply's calls
 * what is known of each. A call whose execution started and never finished is `unknown`: it may
 * have taken effect, so it is never run again blindly.
 */
import type { JournalRecord } from "./journal-records.js";
import { withInterruptedResults } from "../runner/interrupted-calls.js";
import type { Message, ToolCall } from "../ports/messages.js";

/** `unfinished`: the journal stops mid-run (the process died, or still runs). */
export type RunStatus = "unfinished" | "completed" | "failed" | "cancelled" | "waiting";

/** One call of the last model reply, with what the journal knows of it. */
export type OpenCall =
  | { readonly call: ToolCall; readonly state: "finished"; readonly content: string }
  | { readonly call: ToolCall; readonly state: "unknown" }
  | { readonly call: ToolCall; readonly state: "not_started" };

export interface ReplayedRun {
  /** The conversation up to and including the last model reply (without its tool results). */
  readonly history: readonly Message[];
  /** The last reply's calls, in order; empty when the history ends with a user turn or an answer. */
  readonly openCalls: readonly OpenCall[];
  readonly status: RunStatus;
  /** The task the run was started with. */
  readonly prompt: string;
}

/** The journal's records are well-formed one by one but do not make a run. */
export class JournalReplayError extends Error {
  override readonly name = "JournalReplayError";
}

export function replayJournal(records: readonly JournalRecord[]): ReplayedRun {
  const first = records[0];
  if (first?.type !== "run_started") {
    throw new JournalReplayError("the journal does not begin with a run_started record");
  }
  const history: Message[] = [];
  let calls: readonly ToolCall[] = [];
  let results = new Map<string, string>();
  let started = new Set<string>();
  let status: RunStatus = "unfinished";
  // A conversation's failed or stopped turn leaves the history as the last finished turn left it.
  let lastFinished = 0;

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
        lastFinished = history.length;
        history.push({ role: "user", content: record.prompt });
        break;
      case "user_message":
        if (status === "failed") {
          history.length = lastFinished;
        } else if (status === "cancelled") {
          // As live: a stopped turn stays, its last reply's calls answered as they ended.
          history.push(...answeredAsInterrupted());
        } else {
          answerCalls();
        }
        calls = [];
        results = new Map();
        started = new Set();
        lastFinished = history.length;
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
        break;
      case "execution_finished":
        if (!calls.some((call) => call.id === record.callId)) {
          throw new JournalReplayError(`a result for call ${record.callId}, which was not asked`);
        }
        results.set(record.callId, record.content);
        break;
      case "run_finished":
        status = "completed";
        lastFinished = history.length;
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
      case "call_prepared":
      case "decision":
      case "process_started":
        break;
    }
  }
  return {
    history,
    openCalls: calls.map((call): OpenCall => {
      const content = results.get(call.id);
      if (content !== undefined) return { call, state: "finished", content };
      return started.has(call.id) ? { call, state: "unknown" } : { call, state: "not_started" };
    }),
    status,
    prompt: first.prompt,
  };
}
