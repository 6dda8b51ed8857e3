import { describe, expect, it } from "vitest";
import type { Message } from "../../../src/core/ports/messages.js";
import type { ModelToolSpec } from "../../../src/core/ports/model.js";
import { ChatRequestBody } from "../../../src/adapters/model/openai-chat-body.js";
import { toChatMessages, toChatTools } from "../../../src/adapters/model/openai-chat-request.js";

const tools: ModelToolSpec[] = [
  {
    name: "read_file",
    description: "Reads a file",
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
  { name: "glob", description: 'Finds "files" ✓', parameters: { type: "object" } },
];

const history: Message[] = [
  { role: "system", content: "be brief \u2028 ünïcode 🙂" },
  { role: "user", content: 'say "hi"\n' },
  {
    role: "assistant",
    content: null,
    toolCalls: [{ id: "call_1", name: "read_file", arguments: '{"path":"a.txt"}' }],
  },
  { role: "tool", toolCallId: "call_1", content: "\u0000 bytes \ud800 lone" },
  { role: "assistant", content: "", toolCalls: [] },
];

/** What the SDK sent before: JSON.stringify of the params. */
function sdkBody(messages: readonly Message[], specs: readonly ModelToolSpec[]): string {
  return JSON.stringify({
    model: "gpt-x",
    messages: toChatMessages(messages),
    ...(specs.length === 0 ? {} : { tools: toChatTools(specs) }),
    stream: true,
    stream_options: { include_usage: true },
  });
}

describe("ChatRequestBody", () => {
  it("writes the bytes JSON.stringify of the params would, turn after turn", () => {
    const body = new ChatRequestBody("gpt-x");
    for (let end = 1; end <= history.length; end += 1) {
      const messages = history.slice(0, end);
      expect(body.bytes(messages, tools).toString("utf8")).toBe(sdkBody(messages, tools));
      expect(body.bytes(messages, []).toString("utf8")).toBe(sdkBody(messages, []));
    }
    expect(body.bytes([], tools).toString("utf8")).toBe(sdkBody([], tools));
  });

  it("writes the same bytes after a long history sent at once (a resumed run), turn after turn", () => {
    const long: Message[] = [{ role: "system", content: "be brief" }];
    for (let call = 0; call < 200; call += 1) {
      long.push({
        role: "assistant",
        content: null,
        toolCalls: [{ id: `call_${String(call)}`, name: "read_file", arguments: '{"path":"ü"}' }],
      });
      long.push({
        role: "tool",
        toolCallId: `call_${String(call)}`,
        content: `line ${"é".repeat(call)}`,
      });
    }
    const body = new ChatRequestBody("gpt-x");
    const first = body.bytes(long, tools);
    expect(first.toString("utf8")).toBe(sdkBody(long, tools));
    const more = [...long, ...history.slice(1)];
    for (let end = long.length; end <= more.length; end += 1) {
      const messages = more.slice(0, end);
      expect(body.bytes(messages, tools).toString("utf8")).toBe(sdkBody(messages, tools));
    }
    expect(body.bytes(long, []).toString("utf8")).toBe(sdkBody(long, []));
  });

  it("hands on the same bytes as parts, each message's the same buffer turn after turn", () => {
    const body = new ChatRequestBody("gpt-x");
    const first = body.parts(history.slice(0, 3), tools);
    const later = body.parts(history, tools);
    expect(later.joined().toString("utf8")).toBe(sdkBody(history, tools));
    expect(later.totalBytes).toBe(Buffer.byteLength(sdkBody(history, tools)));
    expect(first.joined().toString("utf8")).toBe(sdkBody(history.slice(0, 3), tools));
    // head, five messages, the tools' opening, two tools, their end and the tail
    expect(later.parts).toHaveLength(1 + 5 + 1 + 2 + 1 + 1);
    // Messages after the first are the very buffers sent before: serialised once, not copied.
    expect(later.parts[2]).toBe(first.parts[2]);
    expect(later.parts[3]).toBe(first.parts[3]);
    expect(body.parts([], []).joined().toString("utf8")).toBe(sdkBody([], []));
  });
});
