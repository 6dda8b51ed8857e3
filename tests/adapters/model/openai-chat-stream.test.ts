import { afterEach, describe, expect, it } from "vitest";
import { OpenAIChatModelClient } from "../../../src/adapters/model/openai-chat.js";
import { MAX_STREAM_BYTES } from "../../../src/adapters/model/openai-chat-stream.js";
import { ModelProviderError, RunCancelledError } from "../../../src/core/common/agent-errors.js";
import type { Message } from "../../../src/core/ports/messages.js";
import {
  ChatCompletionsServer,
  chatStreamTextReply,
  chatStreamToolCallsReply,
  chatTextReply,
  chatToolCallsReply,
  chatUsage,
  chunkBody,
  type ScriptedReply,
} from "../../support/chat-completions-server.js";

const PROMPT: Message[] = [
  { role: "system", content: "You are terse." },
  { role: "user", content: "Hi." },
];

let server: ChatCompletionsServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientWith(
  replies: ScriptedReply[],
  timeoutMs = 60_000,
): Promise<OpenAIChatModelClient> {
  server = await ChatCompletionsServer.start(replies);
  return new OpenAIChatModelClient({
    apiKey: "sk-test",
    model: "m",
    baseURL: server.baseURL,
    maxRetries: 0,
    timeoutMs,
  });
}

describe("OpenAIChatModelClient streaming", () => {
  it("joins streamed text, passes each piece on as it arrives, and takes usage from the last chunk", async () => {
    const client = await clientWith([
      chatStreamTextReply(["Hel", "lo", " there"], { usage: chatUsage(11, 3) }),
    ]);
    const pieces: string[] = [];
    const reply = await client.complete({
      messages: PROMPT,
      tools: [],
      onTextDelta: (text) => pieces.push(text),
    });
    expect(pieces).toEqual(["Hel", "lo", " there"]);
    expect(reply).toEqual({
      message: { role: "assistant", content: "Hello there", toolCalls: [] },
      finishReason: "stop",
      usage: { promptTokens: 11, completionTokens: 3, totalTokens: 14 },
    });
  });

  it("assembles tool calls from deltas by index, with the text beside them", async () => {
    const client = await clientWith([
      chatStreamToolCallsReply(
        [
          { id: "c1", name: "shell", arguments: { command: "ls -la" } },
          { id: "c2", name: "read_file", arguments: { path: "README.md" } },
        ],
        { content: ["Let me ", "look."], argumentPiece: 3 },
      ),
    ]);
    const reply = await client.complete({ messages: PROMPT, tools: [] });
    expect(reply).toEqual({
      message: {
        role: "assistant",
        content: "Let me look.",
        toolCalls: [
          { id: "c1", name: "shell", arguments: '{"command":"ls -la"}' },
          { id: "c2", name: "read_file", arguments: '{"path":"README.md"}' },
        ],
      },
      finishReason: "tool_calls",
    });
  });

  it("reads a whole JSON reply from a server that does not stream, and still shows its text", async () => {
    const client = await clientWith([
      chatTextReply("whole"),
      chatToolCallsReply([{ id: "c1", name: "shell", arguments: "{}" }]),
    ]);
    const pieces: string[] = [];
    const onTextDelta = (text: string): void => {
      pieces.push(text);
    };
    const text = await client.complete({ messages: PROMPT, tools: [], onTextDelta });
    expect(text.message.content).toBe("whole");
    const calls = await client.complete({ messages: PROMPT, tools: [], onTextDelta });
    expect(calls.message.toolCalls).toEqual([{ id: "c1", name: "shell", arguments: "{}" }]);
    expect(pieces).toEqual(["whole"]);
  });

  it("fails a stream cut off before it finished", async () => {
    const client = await clientWith([
      { events: [{ data: chunkBody({ content: "par" }) }], done: false },
    ]);
    await expect(client.complete({ messages: PROMPT, tools: [] })).rejects.toThrow(
      new ModelProviderError(
        "Malformed model reply: the stream ended before the reply was complete",
      ),
    );
  });

  it("fails a streamed tool call without an id, like a whole reply", async () => {
    const client = await clientWith([
      {
        events: [
          { data: chunkBody({ tool_calls: [{ index: 0, function: { name: "shell" } }] }) },
          { data: chunkBody({}, "tool_calls") },
        ],
      },
    ]);
    await expect(client.complete({ messages: PROMPT, tools: [] })).rejects.toThrow(
      "Malformed model reply: tool call 0 has no id",
    );
  });

  it("gives up on a stream over the size limit, however fast it arrives", async () => {
    const half = "x".repeat(MAX_STREAM_BYTES / 2);
    const client = await clientWith([
      { events: [{ data: chunkBody({ content: half }) }, { data: chunkBody({ content: half }) }] },
    ]);
    await expect(client.complete({ messages: PROMPT, tools: [] })).rejects.toThrow(
      new ModelProviderError(
        `Malformed model reply: the stream is over ${String(MAX_STREAM_BYTES)} bytes`,
      ),
    );
  });

  it("reports an error event in the stream", async () => {
    const client = await clientWith([
      { events: [{ data: { error: { message: "overloaded" } } }], done: false },
    ]);
    await expect(client.complete({ messages: PROMPT, tools: [] })).rejects.toThrow(
      "The model provider returned an error: overloaded",
    );
  });

  it("gives up on a stream that stalls longer than the timeout", async () => {
    const client = await clientWith(
      [
        {
          events: [
            { data: chunkBody({ content: "a" }) },
            { data: chunkBody({}, "stop"), delayMs: 5_000 },
          ],
        },
      ],
      300,
    );
    await expect(client.complete({ messages: PROMPT, tools: [] })).rejects.toThrow(
      /^Model stream from http:\/\/127\.0\.0\.1:\d+\/v1 stalled: nothing arrived for 0\.3 s$/,
    );
  });

  it("stops reading at once when cancelled mid-stream", async () => {
    // Ten minutes before the second piece: a client that read on after the cancel would run into
    // this test's timeout, however fast or loaded the machine.
    const client = await clientWith([
      {
        events: [
          { data: chunkBody({ role: "assistant", content: "a" }) },
          { data: chunkBody({ content: "b" }), delayMs: 600_000 },
          { data: chunkBody({}, "stop") },
        ],
      },
    ]);
    const cancel = new AbortController();
    const reply = client.complete({
      messages: PROMPT,
      tools: [],
      signal: cancel.signal,
      onTextDelta: () => {
        cancel.abort();
      },
    });
    await expect(reply).rejects.toBeInstanceOf(RunCancelledError);
  });
});
