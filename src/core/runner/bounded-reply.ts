/**
 * A model reply cut down to what the run journal can keep, before it is journaled or kept in the
 * history. Everything the model sends is journaled (its reply, then each call's validated
 * arguments, and each call's id and name in every record of the call), and a record that would
 * push the journal past what resume reads stops the run: so a hostile reply (a 60 MiB argument, a
 * flood of text, a thousand calls at once) must be bounded here, not left to stop the run there.
 *
 * A call over the bounds keeps its id and name but its arguments are replaced by a marker, and it
 * is refused (`arguments_too_large`, or `too_many_tool_calls` past the calls one reply may run):
 * the history stays paired, and the model reads why. Text over the bounds is cut, with a note
 * saying how much was left out. What each call's records will take after the reply is handed on
 * as its reserve, so the results that come later leave room for it (result-room.ts).
 */
import { JournalWriteError } from "../common/agent-errors.js";
import { cutText, jsonBytes } from "./journal-text.js";
import type { AssistantMessage, ToolCall } from "../ports/messages.js";
import {
  argumentsTooLarge,
  MAX_ARGUMENTS_BYTES,
  replyTooLarge,
  utf8Bytes,
} from "../tools/argument-limits.js";
import { toolError, type ToolResult } from "../tools/tool-result.js";

/** One reply's share of the journal at most: its text and each of its calls' records. */
export const MAX_REPLY_BYTES = 24 * 1024 * 1024;
/**
 * More text than any answer a person reads, with room for a long generated file in the answer
 * (a 1 MiB answer is printed whole); the rest of a reply's text is left out.
 */
export const MAX_REPLY_TEXT_BYTES = 4 * 1024 * 1024;
/** More calls than any task needs at once; the rest of a reply's calls are refused, not run. */
export const MAX_CALLS_PER_REPLY = 128;

/**
 * The records of a call that runs, apart from its arguments, id and name: their keys and times,
 * the outcome, a decision's reason and scope, the final arguments, and a short result (a longer
 * one takes the reply's share, result-room.ts). Generous on purpose.
 */
const RUN_CALL_RECORDS_BYTES = 8 * 1024;
/** The same for a refused call: the marker in the reply, one execution_finished and the refusal. */
const REFUSED_CALL_RECORDS_BYTES = 2 * 1024;
/**
 * How often a call that runs names its id and tool: the reply, call_prepared, decision,
 * execution_started, process_started and execution_finished (twice, with its outcome). A refused
 * call names them in the reply and its execution_finished: three times.
 */
const RUN_CALL_COPIES = 7;
const REFUSED_CALL_COPIES = 3;

export interface BoundedReply {
  /** The reply as journaled and kept in the history. */
  readonly message: AssistantMessage;
  /** By call id: the calls refused for their size or number, with the result the model reads. */
  readonly refused: ReadonlyMap<string, ToolResult>;
  /** By call id: the journal bytes the call's records take after the reply, its result apart. */
  readonly reserves: ReadonlyMap<string, number>;
}

/**
 * `message`: as `checkedReply` returns it, ids and names already short (long-call-ids.ts).
 * `room`: bytes the journal can still take. A reply gets at most half of it, the rest is kept
 * for the results and the records that close the run. Every call is answered and journaled, run
 * or refused, so what a refusal costs is charged for every call first; a reply whose refusals
 * alone would not fit is not journaled at all, before anything in it runs.
 */
export function boundedReply(message: AssistantMessage, room: number): BoundedReply {
  let left = Math.max(0, Math.min(MAX_REPLY_BYTES, Math.floor(room / 2)));
  const content =
    message.content === null
      ? null
      : cutText(message.content, Math.min(MAX_REPLY_TEXT_BYTES, Math.floor(left / 2)));
  const contentBytes = content === null ? 0 : jsonBytes(content);
  const calls = message.toolCalls;
  const unavoidable = calls.reduce((sum, call) => sum + refusedCallBytes(call), 0);
  if (contentBytes + unavoidable > room) {
    throw new JournalWriteError(
      `The run journal has ${String(room)} bytes left, fewer than the model's reply with ${String(calls.length)} tool calls takes even with every call refused; the agent stopped before any of it ran`,
    );
  }
  left -= contentBytes + unavoidable;
  const refused = new Map<string, ToolResult>();
  const reserves = new Map<string, number>();
  const refuse = (call: ToolCall, bytes: number, result: ToolResult): ToolCall => {
    refused.set(call.id, result);
    reserves.set(call.id, refusedCallBytes(call) - idAndNameBytes(call));
    return { ...call, arguments: JSON.stringify({ omitted_bytes: bytes }) };
  };
  const toolCalls = calls.map((call, index): ToolCall => {
    const bytes = utf8Bytes(call.arguments);
    if (index >= MAX_CALLS_PER_REPLY) {
      return refuse(call, bytes, tooManyToolCalls(call.name, index + 1, calls.length));
    }
    if (bytes > MAX_ARGUMENTS_BYTES)
      return refuse(call, bytes, argumentsTooLarge(call.name, bytes));
    // Beyond its refusal, already charged: the arguments twice (the reply, then call_prepared)
    // and the records of a call that runs.
    const overhead = runCallOverhead(call) - refusedCallBytes(call);
    const cost = 2 * jsonBytes(call.arguments) + overhead;
    if (cost > left) {
      const roomForArguments = Math.max(0, Math.floor((left - overhead) / 2));
      return refuse(call, bytes, replyTooLarge(call.name, bytes, roomForArguments));
    }
    left -= cost;
    reserves.set(call.id, runCallReserve(call));
    return call;
  });
  return { message: { ...message, content, toolCalls }, refused, reserves };
}

/**
 * What a call that runs takes in the journal after its reply: its arguments again in
 * call_prepared, its id and name in each later record, and those records themselves.
 */
export function runCallReserve(call: ToolCall): number {
  return jsonBytes(call.arguments) + runCallOverhead(call) - idAndNameBytes(call);
}

/** Past the calls one reply may run: the call is answered, but nothing of it runs. */
export function tooManyToolCalls(toolName: string, position: number, count: number): ToolResult {
  return toolError(
    "too_many_tool_calls",
    `This reply has ${String(count)} tool calls, over the ${String(MAX_CALLS_PER_REPLY)} the ` +
      `harness runs from one reply; call ${String(position)} (${toolName}) was not run. ` +
      "Send the rest in a later reply",
  );
}

/** Everything a call that runs takes in the journal, its arguments and result apart. */
function runCallOverhead(call: ToolCall): number {
  return idAndNameBytes(call) * RUN_CALL_COPIES + RUN_CALL_RECORDS_BYTES;
}

/** Everything a refused call takes in the journal: the reply's entry and one execution_finished. */
function refusedCallBytes(call: ToolCall): number {
  return idAndNameBytes(call) * REFUSED_CALL_COPIES + REFUSED_CALL_RECORDS_BYTES;
}

function idAndNameBytes(call: ToolCall): number {
  return jsonBytes(call.id) + jsonBytes(call.name);
}
