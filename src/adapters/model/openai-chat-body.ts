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
 * A batch closes once its messages' text reaches this many characters, so that its JSON is
 * usually a young object (V8 keeps larger ones apart, from 128 KiB) that fits a slab of kept bytes
 * (kept-bytes.ts). Only a resume's first request, or a history changed early on, makes batches
 * this large: a live run's turn adds one batch of its own new messages.
 */
const BATCH_CHARS = 16 * 1024;

/** Consecutive messages of the history, serialised together: each one's JSON after a comma. */
interface Batch {
  readonly messages: readonly Message[];
  readonly bytes: Buffer;
}

export class ChatRequestBody {
  readonly #head: Buffer;
  /** Each batch kept, by its first message: found again wherever a history holds it. */
  readonly #batchAt = new WeakMap<Message, Batch>();
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
   * The batches that make up `messages`: wherever the history holds a kept batch's very messages
   * (the same objects, in order) that batch is sent again, and the messages between are
   * serialised in new batches. A history grows at its end; a compaction, a failed turn's undoing
   * or a message put in front (a note before a history without a system prompt) changes it at
   * some point, and only what is new from there is serialised again.
   */
  #batchesFor(messages: readonly Message[]): readonly Batch[] {
    const batches: Batch[] = [];
    let pending: Message[] = [];
    let chars = 0;
    const closePending = (): void => {
      if (pending.length === 0) return;
      batches.push(this.#batch(pending));
      pending = [];
      chars = 0;
    };
    let at = 0;
    while (at < messages.length) {
      const message = messages[at];
      if (message === undefined) break; // a history has no holes
      const kept = this.#batchAt.get(message);
      if (kept !== undefined && beginsAt(messages, at, kept.messages)) {
        closePending();
        batches.push(kept);
        at += kept.messages.length;
        continue;
      }
      pending.push(message);
      chars += textLength(message);
      at += 1;
      if (chars >= BATCH_CHARS) closePending();
    }
    closePending();
    return batches;
  }

  #batch(messages: readonly Message[]): Batch {
    // "[a,b]" without its brackets, after a comma: the string is made flat once, by the slice.
    const json = JSON.stringify(toChatMessages(messages));
    const batch = { messages, bytes: this.#kept.encode(json.slice(1, -1), ",") };
    const [first] = messages;
    if (first !== undefined) this.#batchAt.set(first, batch);
    return batch;
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
