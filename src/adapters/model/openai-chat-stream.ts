import { ModelProviderError, RunCancelledError } from "../../core/common/agent-errors.js";
import { oneLine } from "../../core/common/one-line.js";
import { errorObjectIn, providerErrorFor } from "./provider-error-body.js";

export interface StreamReadOptions {
  readonly signal: AbortSignal | undefined;
  /** Called with each piece of the model's text as it arrives. */
  readonly onTextDelta: ((text: string) => void) | undefined;
  /** Nothing arriving for this long ends the request: a stalled stream must not hang the run. */
  readonly idleTimeoutMs: number;
  /** The error for a stalled stream (the caller knows the URL and how to word it). */
  readonly stalled: () => Error;
}

interface ToolCallParts {
  id?: string;
  type?: string;
  name?: string;
  arguments: string;
}

/**
 * Reads a chat-completions server-sent event stream and assembles what the deltas add up to into
 * the shape of a whole chat completion, for `parseChatCompletion` to check like any other reply:
 * text pieces are joined, tool calls are put together by their `index`, and usage comes from the
 * last chunk (`stream_options.include_usage`). An error the server sends once the stream has
 * begun (an error object as an event's data, or an `event: error`) fails the request as its HTTP
 * error would have (provider-error-body.ts).
 */
export async function readChatStream(
  response: Response,
  options: StreamReadOptions,
): Promise<unknown> {
  let content: string | null = null;
  const calls: ToolCallParts[] = [];
  let finishReason: unknown;
  let usage: unknown;
  let done = false;
  for await (const { event, data } of serverSentEvents(response, options)) {
    if (event === "error") throw errorEventFailure(data);
    if (data === "[DONE]") {
      done = true;
      break;
    }
    const chunk = parseChunk(data);
    if (chunk.usage !== undefined && chunk.usage !== null) usage = chunk.usage;
    if (!Array.isArray(chunk.choices)) continue;
    for (const choice of chunk.choices as unknown[]) {
      // Only the first choice is asked for (no `n`); any other is ignored, as in a whole reply.
      if (!isRecord(choice) || (choice.index !== undefined && choice.index !== 0)) continue;
      if (choice.finish_reason !== undefined && choice.finish_reason !== null) {
        finishReason = choice.finish_reason;
      }
      const { delta } = choice;
      if (!isRecord(delta)) continue;
      if (typeof delta.content === "string" && delta.content !== "") {
        content = (content ?? "") + delta.content;
        options.onTextDelta?.(delta.content);
      }
      if (Array.isArray(delta.tool_calls)) {
        for (const part of delta.tool_calls as unknown[]) addToolCallPart(calls, part);
      }
    }
  }
  if (!done && finishReason === undefined) {
    throw malformed("the stream ended before the reply was complete");
  }
  const message: Record<string, unknown> = { role: "assistant", content };
  if (calls.length > 0) {
    message.tool_calls = Array.from(calls, (call: ToolCallParts | undefined, index) => {
      if (call === undefined) throw malformed(`tool call ${index} is missing from the stream`);
      return {
        id: call.id,
        ...(call.type === undefined ? {} : { type: call.type }),
        function: { name: call.name, arguments: call.arguments },
      };
    });
  }
  return {
    choices: [{ index: 0, message, finish_reason: finishReason ?? null }],
    ...(usage === undefined ? {} : { usage }),
  };
}

function addToolCallPart(calls: ToolCallParts[], part: unknown): void {
  if (!isRecord(part)) throw malformed("a tool call delta is not an object");
  const { index } = part;
  if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index > 1000) {
    throw malformed("a tool call delta has no valid index");
  }
  const call = (calls[index] ??= { arguments: "" });
  // The id, type and name come once, in a call's first delta; the arguments come in pieces.
  if (typeof part.id === "string" && part.id !== "") call.id ??= part.id;
  if (typeof part.type === "string") call.type ??= part.type;
  const fn = part.function;
  if (isRecord(fn)) {
    if (typeof fn.name === "string" && fn.name !== "") call.name ??= fn.name;
    if (typeof fn.arguments === "string") call.arguments += fn.arguments;
  }
}

function parseChunk(data: string): Record<string, unknown> {
  let chunk: unknown;
  try {
    chunk = JSON.parse(data);
  } catch {
    throw malformed(`a stream event is not JSON: ${JSON.stringify(data.slice(0, 60))}`);
  }
  if (!isRecord(chunk)) throw malformed("a stream event is not a JSON object");
  const failure = providerErrorFor(errorObjectIn(chunk));
  if (failure !== undefined) throw failure;
  return chunk;
}

/** An `event: error`: its data is an error body, a bare error object, or plain text. */
function errorEventFailure(data: string): ModelProviderError {
  let body: unknown = data;
  try {
    body = JSON.parse(data);
  } catch {
    // Plain text: the text is the message.
  }
  const error = isRecord(body) ? (errorObjectIn(body) ?? body) : body;
  return (
    providerErrorFor(error) ??
    new ModelProviderError("The model provider returned an error event without a message")
  );
}

/** A whole reply is kilobytes; the same cap as a reply read whole (node-http-fetch). */
export const MAX_STREAM_BYTES = 64 * 1024 * 1024;

interface ServerSentEvent {
  /** The `event:` field; undefined for the default ("message"). */
  readonly event: string | undefined;
  readonly data: string;
}

/** Each event's type and data, per the server-sent events format (lines, blank line ends an event). */
async function* serverSentEvents(
  response: Response,
  options: StreamReadOptions,
): AsyncGenerator<ServerSentEvent> {
  const body = response.body;
  if (body === null) return;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pieces: string[] = [];
  let afterCarriageReturn = false;
  let data: string[] = [];
  let event: string | undefined;
  let received = 0;
  try {
    for (;;) {
      const { done, value } = await readWithin(reader, options);
      received += value?.length ?? 0;
      // The stall timeout bounds silence, not volume: a server that never stops must not fill memory.
      if (received > MAX_STREAM_BYTES) {
        throw malformed(`the stream is over ${String(MAX_STREAM_BYTES)} bytes`);
      }
      let text = done ? decoder.decode() : decoder.decode(value, { stream: true });
      // "\r\n" split across two pieces: its "\n" ends nothing new.
      if (afterCarriageReturn && text !== "") {
        if (text.startsWith("\n")) text = text.slice(1);
        afterCarriageReturn = false;
      }
      // Only the new piece is searched; the text of an unfinished line waits in `pieces`, so a long
      // line sent in many pieces costs linear time, not a search from its start each time.
      let lineEnd: RegExpExecArray | null;
      while ((lineEnd = /\r\n|\r|\n/.exec(text)) !== null) {
        const line = pieces.join("") + text.slice(0, lineEnd.index);
        pieces = [];
        text = text.slice(lineEnd.index + lineEnd[0].length);
        if (lineEnd[0] === "\r" && text === "") afterCarriageReturn = true;
        if (line === "") {
          if (data.length > 0) yield { event, data: data.join("\n") };
          data = [];
          event = undefined;
        } else if (line.startsWith("data:")) {
          data.push(fieldValue(line, "data:"));
        } else if (line.startsWith("event:")) {
          event = fieldValue(line, "event:");
        }
      }
      if (text !== "") pieces.push(text);
      if (done) {
        const last = pieces.join("");
        if (last.startsWith("data:")) data.push(fieldValue(last, "data:"));
        if (data.length > 0) yield { event, data: data.join("\n") };
        return;
      }
    }
  } finally {
    // Stops the download when the reader leaves early (done, an error, cancelled).
    void reader.cancel().catch(() => undefined);
  }
}

/** A field's value: what follows its name, less one leading space. */
function fieldValue(line: string, name: string): string {
  const value = line.slice(name.length);
  return value.startsWith(" ") ? value.slice(1) : value;
}

/** One read, raced against the person's cancel and the idle timeout. */
function readWithin(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  options: StreamReadOptions,
): ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]> {
  const { signal } = options;
  if (signal?.aborted === true) return Promise.reject(new RunCancelledError());
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      finish();
      reject(new RunCancelledError());
    };
    const timer = setTimeout(() => {
      finish();
      reject(options.stalled());
    }, options.idleTimeoutMs);
    const finish = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    reader.read().then(
      (result) => {
        finish();
        resolve(result);
      },
      (error: unknown) => {
        finish();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

function malformed(detail: string): ModelProviderError {
  return new ModelProviderError(oneLine(`Malformed model reply: ${detail}`));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
