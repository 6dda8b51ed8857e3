/**
 * The chat request's body, in the bytes `JSON.stringify` gives the SDK's params, but built from
 * parts kept between turns: the history is serialised in batches of consecutive messages, each
 * batch once, the first time it is sent, and each tool spec once. A turn then hands on the
 * batches it already has (`parts`) and serialises only the messages new since, instead of
 * writing the whole history out again or copying it into one buffer, so neither its cost nor the
 * garbage it leaves grows with the history.
 *
 * Batches, not single messages: a resumed run sends thousands of messages at once, and one
 * `JSON.stringify` per message (V8 builds each result from growing pieces, joined when written)
 * allocated three times the body and handed the socket a part per message.
 */
import type { Message } from "../../core/ports/messages.js";
import type { ModelToolSpec } from "../../core/ports/model.js";
import { KeptBytes } from "./kept-bytes.js";
import { toChatMessages, toChatTools } from "./openai-chat-request.js";
import { RequestBodyParts } from "./request-body-parts.js";

const TOOLS = Buffer.from('],"tools":[');
const TOOLS_END = Buffer.from("]");
const NO_TOOLS = Buffer.from("]");
const TAIL = Buffer.from(',"stream":true,"stream_options":{"include_usage":true}}');

/**
 * A batch closes once its messages' text reaches this many characters: its JSON then stays a
 * young object (under V8's 128 KiB for one) and fits a slab of kept bytes (kept-bytes.ts).
 */
const BATCH_CHARS = 16 * 1024;

/** Consecutive messages of the history, serialised together: each one's JSON after a comma. */
interface Batch {
  readonly messages: readonly Message[];
  readonly bytes: Buffer;
}

export class ChatRequestBody {
  readonly #head: Buffer;
  /** The batches the last history sent began with, in order. */
  #batches: Batch[] = [];
  readonly #tools = new WeakMap<ModelToolSpec, Buffer>();
  /** Where those bytes live: slabs of kept bytes only, not Node's shared pool. */
  readonly #kept = new KeptBytes();

  constructor(model: string) {
    this.#head = Buffer.from(`{"model":${JSON.stringify(model)},"messages":[`);
  }

  /**
   * `{ model, messages, tools?, stream: true, stream_options: { include_usage: true } }`, as
   * JSON; an empty tools list is left out (OpenAI rejects one).
   */
  bytes(messages: readonly Message[], tools: readonly ModelToolSpec[]): Buffer {
    return this.parts(messages, tools).joined();
  }

  /**
   * The same bytes as `bytes`, as the parts kept between turns (one per batch of messages, one
   * per tool); `onWritten` is called each time an attempt has handed them all to the socket.
   */
  parts(
    messages: readonly Message[],
    tools: readonly ModelToolSpec[],
    onWritten?: () => void,
  ): RequestBodyParts {
    const parts: Buffer[] = [this.#head];
    this.#batchesFor(messages).forEach((batch, index) => {
      // The first JSON of the list is sent without its comma (a view, no copy).
      parts.push(index === 0 ? batch.bytes.subarray(1) : batch.bytes);
    });
    if (tools.length === 0) {
      parts.push(NO_TOOLS);
    } else {
      parts.push(TOOLS);
      tools.forEach((tool, index) => {
        const bytes = this.#tool(tool);
        parts.push(index === 0 ? bytes.subarray(1) : bytes);
      });
      parts.push(TOOLS_END);
    }
    parts.push(TAIL);
    return new RequestBodyParts(parts, onWritten);
  }

  /**
   * The batches that make up `messages`: those kept from before while the history still begins
   * with their very messages (it grows at its end; a compaction or a failed turn's undoing
   * changes it from some point on), then the rest serialised in new batches.
   */
  #batchesFor(messages: readonly Message[]): readonly Batch[] {
    const batches = this.#batches;
    let at = 0;
    let kept = 0;
    for (const batch of batches) {
      if (!beginsAt(messages, at, batch.messages)) break;
      at += batch.messages.length;
      kept += 1;
    }
    batches.length = kept;
    let pending: Message[] = [];
    let chars = 0;
    for (const message of messages.slice(at)) {
      pending.push(message);
      chars += textLength(message);
      if (chars >= BATCH_CHARS) {
        batches.push(this.#batch(pending));
        pending = [];
        chars = 0;
      }
    }
    if (pending.length > 0) batches.push(this.#batch(pending));
    return batches;
  }

  #batch(messages: readonly Message[]): Batch {
    // "[a,b]" without its brackets, after a comma: the string is made flat once, by the slice.
    const json = JSON.stringify(toChatMessages(messages));
    return { messages, bytes: this.#kept.encode(json.slice(1, -1), ",") };
  }

  #tool(tool: ModelToolSpec): Buffer {
    let bytes = this.#tools.get(tool);
    if (bytes === undefined) {
      bytes = this.#kept.encode(JSON.stringify(toChatTools([tool])[0]), ",");
      this.#tools.set(tool, bytes);
    }
    return bytes;
  }
}

/** Whether `messages` holds exactly `run`'s messages (the same objects) from `at` on. */
function beginsAt(messages: readonly Message[], at: number, run: readonly Message[]): boolean {
  if (at + run.length > messages.length) return false;
  for (let index = 0; index < run.length; index += 1) {
    if (messages[at + index] !== run[index]) return false;
  }
  return true;
}

/** About how many characters of text a message carries: what sizes a batch. */
function textLength(message: Message): number {
  if (message.role !== "assistant") return message.content.length;
  let length = message.content?.length ?? 0;
  for (const call of message.toolCalls) length += call.arguments.length + call.name.length;
  return length;
}
