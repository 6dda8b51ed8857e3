import { describe, expect, it, vi } from "vitest";
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

  it("hands on the same bytes as parts, each batch of messages the same buffer turn after turn", () => {
    const body = new ChatRequestBody("gpt-x");
    const first = body.parts(history.slice(0, 3), tools);
    const second = body.parts(history.slice(0, 4), tools);
    const later = body.parts(history, tools);
    expect(later.joined().toString("utf8")).toBe(sdkBody(history, tools));
    expect(later.totalBytes).toBe(Buffer.byteLength(sdkBody(history, tools)));
    expect(first.joined().toString("utf8")).toBe(sdkBody(history.slice(0, 3), tools));
    expect(second.joined().toString("utf8")).toBe(sdkBody(history.slice(0, 4), tools));
    // head, a batch per turn (the three messages first sent, then one, then one), the tools'
    // opening, two tools, their end and the tail
    expect(later.parts).toHaveLength(1 + 3 + 1 + 2 + 1 + 1);
    // Batches sent before are the very bytes sent before: serialised once, not copied.
    expect(later.parts[2]).toBe(second.parts[2]);
    expect(sameBytes(later.parts[1], first.parts[1])).toBe(true);
    expect(body.parts([], []).joined().toString("utf8")).toBe(sdkBody([], []));
  });

  it("sends a long history given at once in batches, not a part per message", () => {
    const long = callsAnswered(400, "line\n".repeat(200));
    const parts = new ChatRequestBody("gpt-x").parts(long, []);
    expect(parts.joined().toString("utf8")).toBe(sdkBody(long, []));
    // 400 KB of text in batches of about 16 K characters, with the head, "]" and the tail
    expect(parts.parts.length).toBeLessThanOrEqual(3 + Math.ceil((400 * 1000) / (16 * 1024)) + 1);
  });

  it("serialises again from where a history changed: compacted, or cut back to an earlier turn", () => {
    const body = new ChatRequestBody("gpt-x");
    const sent = body.parts(history, tools);
    expect(sent.joined().toString("utf8")).toBe(sdkBody(history, tools));
    const compacted: Message[] = [
      ...history.slice(0, 1),
      { role: "user", content: "summary of what came before" },
      ...history.slice(4),
    ];
    expect(body.bytes(compacted, tools).toString("utf8")).toBe(sdkBody(compacted, tools));
    const cutBack = history.slice(0, 2);
    expect(body.bytes(cutBack, tools).toString("utf8")).toBe(sdkBody(cutBack, tools));
    expect(body.bytes(history, tools).toString("utf8")).toBe(sdkBody(history, tools));
  });
});

describe("ChatRequestBody with a message put in front of each request", () => {
  it("serialises again only up to the first batch it still holds, not the whole history", () => {
    const long = callsAnswered(100, "x".repeat(1000));
    const body = new ChatRequestBody("gpt-x");
    const withNote = (): Message[] => [{ role: "system", content: "a note, made anew" }, ...long];
    body.parts(withNote(), tools);
    body.parts(withNote(), tools);
    const messages = withNote();
    const stringify = vi.spyOn(JSON, "stringify");
    let serialised = 0;
    let third;
    try {
      third = body.parts(messages, tools);
      for (const { value } of stringify.mock.results) {
        if (typeof value === "string") serialised += value.length;
      }
    } finally {
      stringify.mockRestore();
    }
    expect(third.joined().toString("utf8")).toBe(sdkBody(messages, tools));
    // The note and the messages up to the first batch kept (about 16 K characters of text and
    // their JSON), not the whole history's 120 KB.
    expect(serialised).toBeLessThan(30_000);
  });
});

/** A long run's history: `calls` tool calls, each answered with `content`. */
function callsAnswered(calls: number, content: string): Message[] {
  const messages: Message[] = [];
  for (let call = 0; call < calls; call += 1) {
    const id = `call_${String(call)}`;
    messages.push({
      role: "assistant",
      content: null,
      toolCalls: [{ id, name: "f", arguments: "{}" }],
    });
    messages.push({ role: "tool", toolCallId: id, content });
  }
  return messages;
}

/** Whether two views are of the same memory (a batch sent first is handed on without its comma). */
function sameBytes(one: Uint8Array | undefined, other: Uint8Array | undefined): boolean {
  return (
    one !== undefined &&
    one.buffer === other?.buffer &&
    one.byteOffset === other.byteOffset &&
    one.byteLength === other.byteLength
  );
}
