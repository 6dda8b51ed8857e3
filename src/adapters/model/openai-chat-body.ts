/**
 * The chat request's body, in the bytes `JSON.stringify` gives the SDK's params, but built from
 * parts kept between turns: each message of the history is serialised once, the first time it is
 * sent, and each tool spec once. A turn then hands on the parts it already has (`parts`) instead
 * of writing the whole history out again, or copying it into one buffer, so neither its cost nor
 * the garbage it leaves grows with the history.
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

export class ChatRequestBody {
  readonly #head: Buffer;
  /** Each one's JSON after a comma: the first of a list is sent without it (a view, no copy). */
  readonly #messages = new WeakMap<Message, Buffer>();
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
   * The same bytes as `bytes`, as the parts kept between turns (one per message, one per tool);
   * `onWritten` is called each time an attempt has handed them all to the socket.
   */
  parts(
    messages: readonly Message[],
    tools: readonly ModelToolSpec[],
    onWritten?: () => void,
  ): RequestBodyParts {
    const parts: Buffer[] = [this.#head];
    messages.forEach((message, index) => {
      const bytes = this.#message(message);
      parts.push(index === 0 ? bytes.subarray(1) : bytes);
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

  #message(message: Message): Buffer {
    let bytes = this.#messages.get(message);
    if (bytes === undefined) {
      bytes = this.#kept.encode(JSON.stringify(toChatMessages([message])[0]), ",");
      this.#messages.set(message, bytes);
    }
    return bytes;
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
