/**
 * A provider's "too long for the window" becomes ContextWindowExceededError (the runner compacts
 * and retries once); any other refusal stays a plain provider error. Each provider's own words,
 * through the real client against a local server, sent as an HTTP error or inside a reply that
 * began as a success (mid-stream, as OpenAI-compatible servers do, or a 200 body).
 */
import { afterEach, describe, expect, it } from "vitest";
import { OpenAIChatModelClient } from "../../../src/adapters/model/index.js";
import { ContextWindowExceededError } from "../../../src/core/context/context-errors.js";
import { ModelProviderError } from "../../../src/core/common/agent-errors.js";
import {
  ChatCompletionsServer,
  chatErrorReply,
  chunkBody,
  type HttpReply,
} from "../../support/chat-completions-server.js";

let server: ChatCompletionsServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function failureOf(reply: HttpReply): Promise<unknown> {
  server = await ChatCompletionsServer.start([reply]);
  const client = new OpenAIChatModelClient({
    apiKey: "sk-test",
    model: "m",
    baseURL: server.baseURL,
    maxRetries: 0,
  });
  try {
    await client.complete({ messages: [{ role: "user", content: "hi" }], tools: [] });
  } catch (error) {
    return error;
  }
  throw new Error("expected the request to fail");
}

describe("context-length refusals", () => {
  it.each([
    [
      "OpenAI (its code)",
      chatErrorReply(400, "This model's maximum context length is 128000 tokens.", {
        code: "context_length_exceeded",
      }),
    ],
    [
      "vLLM",
      chatErrorReply(
        400,
        "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion).",
        { type: "BadRequestError" },
      ),
    ],
    [
      "llama.cpp",
      chatErrorReply(400, "the request exceeds the available context size, try increasing it", {
        type: "exceed_context_size_error",
      }),
    ],
    ["Ollama", chatErrorReply(400, "the input length exceeds the context length")],
    [
      "a bare 'prompt is too long'",
      chatErrorReply(400, "prompt is too long: 210000 tokens > 200000 maximum"),
    ],
  ])("%s", async (_provider, reply) => {
    const error = await failureOf(reply);
    expect(error).toBeInstanceOf(ContextWindowExceededError);
    expect((error as Error).message).toMatch(
      /^The model provider rejected the request \(HTTP 400\): /,
    );
  });

  it.each([
    ["another 400", chatErrorReply(400, "Invalid value for 'tools'.")],
    [
      "a 429",
      chatErrorReply(429, "Rate limit reached for tokens per min", {
        headers: { "x-should-retry": "false" },
      }),
    ],
  ])("%s is not one", async (_name, reply) => {
    const error = await failureOf(reply);
    expect(error).toBeInstanceOf(ModelProviderError);
    expect(error).not.toBeInstanceOf(ContextWindowExceededError);
  });
});

const OPENAI_OVERFLOW = {
  message:
    "This model's maximum context length is 16384 tokens. However, your messages resulted in 20000 tokens.",
  type: "invalid_request_error",
  param: "messages",
  code: "context_length_exceeded",
};
const LLAMA_OVERFLOW = {
  code: 400,
  message: "request (4476 tokens) exceeds the available context size (4096 tokens)",
  type: "exceed_context_size_error",
};

/** A stream that begins as a reply, then carries `events`, and ends without `[DONE]`. */
function midStream(...events: HttpReply["events"] & object): HttpReply {
  return {
    events: [{ data: chunkBody({ role: "assistant", content: "" }) }, ...events],
    done: false,
  };
}

describe("context-length refusals after the reply began", () => {
  it.each([
    [
      "an error object after data: (OpenAI-compatible)",
      midStream({ data: { error: OPENAI_OVERFLOW } }),
    ],
    ["llama.cpp's error object after data:", midStream({ data: { error: LLAMA_OVERFLOW } })],
    [
      "vLLM's bare error object",
      midStream({
        data: {
          object: "error",
          message:
            "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.",
          type: "BadRequestError",
          code: 400,
        },
      }),
    ],
    ["only a code, no words", midStream({ data: { error: { code: "context_length_exceeded" } } })],
    [
      "an SSE error event with an error body",
      midStream({ event: "error", data: { error: LLAMA_OVERFLOW } }),
    ],
    [
      "an SSE error event with a bare error object",
      midStream({ event: "error", data: LLAMA_OVERFLOW }),
    ],
    ["an SSE error event in plain text", midStream({ event: "error", data: "prompt is too long" })],
    ["a 200 body that is an error", { body: { error: OPENAI_OVERFLOW } }],
  ])("%s", async (_name, reply) => {
    const error = await failureOf(reply);
    expect(error).toBeInstanceOf(ContextWindowExceededError);
    expect((error as Error).message).toMatch(/^The model provider returned an error: /);
  });

  it.each([
    ["another error object", midStream({ data: { error: { message: "overloaded" } } })],
    ["another error event", midStream({ event: "error", data: { message: "overloaded" } })],
  ])("%s is not one, and still fails", async (_name, reply) => {
    const error = await failureOf(reply);
    expect(error).toBeInstanceOf(ModelProviderError);
    expect(error).not.toBeInstanceOf(ContextWindowExceededError);
    expect((error as Error).message).toBe("The model provider returned an error: overloaded");
  });
});
