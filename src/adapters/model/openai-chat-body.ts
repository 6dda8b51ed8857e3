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

/** A message sent for the first time: its JSON, encoded into the body it first goes out in. */
interface NewMessage {
  readonly message: Message;
  readonly json: string;
}

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
    const parts: (Buffer | NewMessage)[] = [this.#head];
    messages.forEach((message, index) => {
      if (index > 0) parts.push(COMMA);
      parts.push(
        this.#messages.get(message) ?? {
          message,
          json: JSON.stringify(toChatMessages([message])[0]),
        },
      );
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
    return this.#joined(parts);
  }

  /**
   * The parts in one buffer, each new message encoded straight into it. When new messages are
   * most of the body (a resumed run's first request carries its whole history: 2,000 messages),
   * each is kept as a view of this body: one allocation, and no second copy of every byte.
   * Otherwise each is kept as a copy of its own, since a view keeps the whole body it is in alive.
   * (Nothing writes to a body once built: it goes to the socket as it is.)
   */
  #joined(parts: readonly (Buffer | NewMessage)[]): Buffer {
    const lengths = parts.map((part) =>
      Buffer.isBuffer(part) ? part.length : Buffer.byteLength(part.json),
    );
    let size = 0;
    let newBytes = 0;
    for (const [index, length] of lengths.entries()) {
      size += length;
      if (!Buffer.isBuffer(parts[index])) newBytes += length;
    }
    const viewsKept = newBytes * 2 >= size;
    const body = Buffer.allocUnsafe(size);
    let at = 0;
    for (const part of parts) {
      if (Buffer.isBuffer(part)) {
        at += part.copy(body, at);
        continue;
      }
      const written = body.write(part.json, at);
      const encoded = body.subarray(at, at + written);
      this.#messages.set(part.message, viewsKept ? encoded : Buffer.from(encoded));
      at += written;
    }
    // JSON.stringify's output is well-formed UTF-16, so each part fills what was measured for it;
    // anything else would send bytes of memory never written.
    if (at !== size) throw new Error("the request body came out shorter than it was measured");
    return body;
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
