/**
 * `agent resume`'s first step, before the loop goes on: the last reply's calls are answered. A
 * finished one keeps its recorded result; one that started and never finished is reported unknown
 * and NOT run again, unless it was a read (it changed nothing: run again, seed 004); one that
 * never started takes the normal path.
 */
import { throwIfCancelled } from "../common/agent-errors.js";
import { outcomeOf } from "../journal/call-facts.js";
import { EXECUTION_UNKNOWN, EXECUTION_UNKNOWN_ON_HOST } from "../journal/interrupted-calls.js";
import type { OpenCall } from "../journal/journal-replay.js";
import { toolMessage, type Message, type ToolCall } from "../ports/messages.js";
import type { RunResult } from "./run-result.js";
import type { ToolOutcome } from "../tools/tool-outcome.js";
import type { ToolResult } from "../tools/tool-result.js";

export interface OpenCallPaths {
  /** A call that started before the process died: the person is told, nothing runs. */
  reportUnknown(call: ToolCall, result: ToolResult): Promise<ToolOutcome>;
  /** A call that never started: prepare → policy → invoke, as in a live run. */
  run(call: ToolCall): Promise<{ result: ToolResult; outcome: ToolOutcome }>;
}

/**
 * A run with nothing waiting for a reply: nothing is left to do, and the model is not asked. Only
 * a user line or a tool result after the last answer waits for one, and so does a reply whose
 * calls are still open. Anything else is answered: a run that gave its answer and lost only its
 * closing record, or a conversation that ended after `/clear` (only the system message is left)
 * or before its first line; its answer is the last reply's text, if there is one.
 */
export function answeredRun(history: Message[]): RunResult | undefined {
  const last = history.at(-1);
  if (last?.role === "user" || last?.role === "tool") return undefined;
  if (last?.role === "assistant" && last.toolCalls.length !== 0) return undefined;
  const finalText = last?.role === "assistant" ? (last.content ?? "") : "";
  return { finalText, turns: 0, history, usage: undefined, outcomes: [] };
}

/** Appends a tool message for each open call, in order; returns the outcomes of those answered now. */
export async function answerOpenCalls(
  openCalls: readonly OpenCall[],
  history: Message[],
  paths: OpenCallPaths,
  signal: AbortSignal | undefined,
): Promise<ToolOutcome[]> {
  const outcomes: ToolOutcome[] = [];
  for (const open of openCalls) {
    throwIfCancelled(signal);
    let content: string;
    if (open.state === "finished") {
      content = open.content;
    } else if (open.state === "unknown") {
      const result = open.onHost === true ? EXECUTION_UNKNOWN_ON_HOST : EXECUTION_UNKNOWN;
      outcomes.push(await paths.reportUnknown(open.call, result));
      content = result.content;
    } else {
      const { result, outcome } = await paths.run(open.call);
      outcomes.push(outcome);
      content = result.content;
    }
    history.push(toolMessage(content, open.call.id));
  }
  return outcomes;
}

/** The outcome of a call whose effect is unknown: it may or may not have run. */
export function unknownOutcome(
  call: ToolCall,
  result: ToolResult = EXECUTION_UNKNOWN,
): ToolOutcome {
  return outcomeOf(
    call,
    { result, executed: "unknown", status: "unknown", boundary: "execution" },
    { durationMs: 0, waitedMs: undefined },
    undefined,
  );
}
