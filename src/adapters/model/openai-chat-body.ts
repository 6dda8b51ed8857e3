/**
 * The chat request's body, in the bytes `JSON.stringify` gives the SDK's params, but built from
 * parts kept between turns: each message of the history is serialised once, the first time it is
 * sent, and each tool spec once. A turn then joins bytes it already has instead of writing the
 * whole history out again (and again to measure it), so its cost no longer grows with the history.
 */
import type { Message } from "../../core/ports/messages.js";
import type { ModelToolSpec } from "../../core/ports/model.js";
import { toChatMessages, toChatTools } from "./openai-chat-request.js";

const COMMA = Buffer.from(",");
const TOOLS = Buffer.from('],"tools":[');
const TOOLS_END = Buffer.from("]");
const NO_TOOLS = Buffer.from("]");
const TAIL = Buffer.from(',"stream":true,"stream_options":{"include_usage":true}}');

export class ChatRequestBody {
  readonly #head: Buffer;
  readonly #messages = new WeakMap<Message, Buffer>();
  readonly #tools = new WeakMap<ModelToolSpec, Buffer>();

  constructor(model: string) {
    this.#head = Buffer.from(`{"model":${JSON.stringify(model)},"messages":[`);
  }

  /**
   * `{ model, messages, tools?, stream: true, stream_options: { include_usage: true } }`, as
   * JSON; an empty tools list is left out (OpenAI rejects one).
   */
  bytes(messages: readonly Message[], tools: readonly ModelToolSpec[]): Buffer {
    const parts: Buffer[] = [this.#head];
    messages.forEach((message, index) => {
      if (index > 0) parts.push(COMMA);
      parts.push(this.#message(message));
    });
    if (tools.length === 0) {
      parts.push(NO_TOOLS);
    } else {
      parts.push(TOOLS);
      tools.forEach((tool, index) => {
        if (index > 0) parts.push(COMMA);
        parts.push(this.#tool(tool));
      });
      parts.push(TOOLS_END);
    }
    parts.push(TAIL);
    return Buffer.concat(parts);
  }

  #message(message: Message): Buffer {
    let bytes = this.#messages.get(message);
    if (bytes === undefined) {
      bytes = Buffer.from(JSON.stringify(toChatMessages([message])[0]));
      this.#messages.set(message, bytes);
    }
    return bytes;
  }

  #tool(tool: ModelToolSpec): Buffer {
    let bytes = this.#tools.get(tool);
    if (bytes === undefined) {
      bytes = Buffer.from(JSON.stringify(toChatTools([tool])[0]));
      this.#tools.set(tool, bytes);
    }
    return bytes;
  }
}
