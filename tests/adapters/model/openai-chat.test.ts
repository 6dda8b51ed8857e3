import { afterEach, describe, expect, it } from "vitest";
import { getEventListeners } from "node:events";
import {
  DEFAULT_MODEL,
  OpenAIChatModelClient,
  type OpenAIChatModelClientOptions,
} from "../../../src/adapters/model/openai-chat.js";
import { ModelProviderError, RunCancelledError } from "../../../src/core/common/agent-errors.js";
import { ToolPairingError, type Message } from "../../../src/core/ports/messages.js";
import type { ModelReply, ModelRequest, ModelToolSpec } from "../../../src/core/ports/model.js";
import {
  ChatCompletionsServer,
  NEVER_ANSWER,
  chatErrorReply,
  chatStreamTextReply,
  chatTextReply,
  chatToolCallsReply,
  chatUsage,
  completionBody,
  type ScriptedReply,
} from "../../support/chat-completions-server.js";

const API_KEY = "sk-test-SECRET-0123456789";
const MODEL = "test-model-1";

const SHELL_TOOL: ModelToolSpec = {
  name: "shell",
  description: "Run a shell command",
  parameters: {
    type: "object",
    properties: { command: { type: "string" } },
    required: ["command"],
    additionalProperties: false,
  },
};

const PROMPT: Message[] = [
  { role: "system", content: "You are terse." },
  { role: "user", content: "List the files." },
];

/** PROMPT as the request body carries it. */
const PROMPT_ON_THE_WIRE = [
  { role: "system", content: "You are terse." },
  { role: "user", content: "List the files." },
];

/**
 * How every request body begins: always asked to stream, with usage in the last chunk (a whole
 * reply is read as before).
 */
const STREAMED = { model: MODEL, stream: true, stream_options: { include_usage: true } };

let server: ChatCompletionsServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function startServer(...replies: ScriptedReply[]): Promise<ChatCompletionsServer> {
  server = await ChatCompletionsServer.start(replies);
  return server;
}

function clientFor(
  target: ChatCompletionsServer | string,
  options: Partial<OpenAIChatModelClientOptions> = {},
): OpenAIChatModelClient {
  return new OpenAIChatModelClient({
    apiKey: API_KEY,
    model: MODEL,
    baseURL: typeof target === "string" ? target : target.baseURL,
    maxRetries: 0,
    ...options,
  });
}

function request(messages: Message[] = PROMPT, tools: ModelToolSpec[] = []): ModelRequest {
  return { messages, tools };
}

/** The rejection, checked to be exactly `type` with exactly `message`, and never leaking the key. */
async function rejectionOf(
  promise: Promise<unknown>,
  type: new (...args: never[]) => Error,
  message: string,
): Promise<void> {
  const error = await promise.then(
    () => new Error("expected a rejection"),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(type);
  expect(error).toHaveProperty("message", message);
  expect(String(error)).not.toContain(API_KEY);
}

describe("OpenAIChatModelClient requests", () => {
  it("sends the model and messages and maps a text reply", async () => {
    const srv = await startServer(chatTextReply("Two files."));
    const reply = await clientFor(srv).complete(request());

    expect(reply).toEqual({
      message: { role: "assistant", content: "Two files.", toolCalls: [] },
      finishReason: "stop",
    });
    expect(reply).not.toHaveProperty("usage");
    expect(srv.requests).toHaveLength(1);
    expect(srv.requests[0]?.path).toBe("/v1/chat/completions");
    expect(srv.requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    // No tools this turn: OpenAI rejects an empty tools list, so none is sent.
    expect(srv.requests[0]?.body).toEqual({
      ...STREAMED,
      messages: [...PROMPT_ON_THE_WIRE],
    });
  });

  it("sends tools and a paired tool history exactly, and maps tool calls with raw arguments", async () => {
    const srv = await startServer(
      chatToolCallsReply([
        { id: "call_3", name: "shell", arguments: '{"command":  "cat a.txt"}' },
        { id: "call_4", name: "shell", arguments: "" },
      ]),
    );
    const history: Message[] = [
      ...PROMPT,
      {
        role: "assistant",
        content: null,
        toolCalls: [
          { id: "call_1", name: "shell", arguments: '{"command":"ls"}' },
          { id: "call_2", name: "shell", arguments: '{"command":"pwd"}' },
        ],
      },
      { role: "tool", toolCallId: "call_1", content: "a.txt\nb.txt" },
      { role: "tool", toolCallId: "call_2", content: "/work" },
      { role: "assistant", content: "Reading a.txt next.", toolCalls: [] },
      { role: "user", content: "Go on." },
    ];

    const reply = await clientFor(srv).complete(request(history, [SHELL_TOOL]));

    expect(srv.requests[0]?.body).toEqual({
      ...STREAMED,
      messages: [
        ...PROMPT_ON_THE_WIRE,
        {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: "call_1",
              type: "function",
              function: { name: "shell", arguments: '{"command":"ls"}' },
            },
            {
              id: "call_2",
              type: "function",
              function: { name: "shell", arguments: '{"command":"pwd"}' },
            },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: "a.txt\nb.txt" },
        { role: "tool", tool_call_id: "call_2", content: "/work" },
        { role: "assistant", content: "Reading a.txt next." },
        { role: "user", content: "Go on." },
      ],
      tools: [
        {
          type: "function",
          function: {
            name: "shell",
            description: "Run a shell command",
            parameters: {
              type: "object",
              properties: { command: { type: "string" } },
              required: ["command"],
              additionalProperties: false,
            },
          },
        },
      ],
    });
    expect(reply).toEqual({
      message: {
        role: "assistant",
        content: null,
        toolCalls: [
          { id: "call_3", name: "shell", arguments: '{"command":  "cat a.txt"}' },
          { id: "call_4", name: "shell", arguments: "" },
        ],
      },
      finishReason: "tool_calls",
    });
  });

  it("accepts a base URL without /v1 for servers that serve /chat/completions", async () => {
    const srv = await startServer(chatTextReply("ok"));
    await clientFor(srv.url).complete(request());
    expect(srv.requests[0]?.path).toBe("/chat/completions");
  });

  it("uses gpt-4.1-mini as the documented default model", () => {
    expect(DEFAULT_MODEL).toBe("gpt-4.1-mini");
  });
});

describe("OpenAIChatModelClient reply mapping", () => {
  /** How the client reads a plain "ok" reply whose usage is `usage`, as the provider sent it. */
  async function replyWithUsage(usage: Record<string, unknown>): Promise<ModelReply> {
    const srv = await startServer({
      body: { ...completionBody({ content: "ok" }, "stop"), usage },
    });
    return clientFor(srv).complete(request());
  }

  it("maps usage when the provider reports it", async () => {
    const srv = await startServer(chatTextReply("ok", { usage: chatUsage(120, 30) }));
    const reply = await clientFor(srv).complete(request());
    expect(reply.usage).toEqual({ promptTokens: 120, completionTokens: 30, totalTokens: 150 });
  });

  it("computes total tokens when only prompt and completion tokens are reported", async () => {
    const reply = await replyWithUsage({ prompt_tokens: 7, completion_tokens: 2 });
    expect(reply.usage).toEqual({ promptTokens: 7, completionTokens: 2, totalTokens: 9 });
  });

  it("drops a usage report that is not token counts", async () => {
    const reply = await replyWithUsage({ prompt_tokens: "7", completion_tokens: 2 });
    expect(reply).not.toHaveProperty("usage");
  });

  it("keeps two tool calls with one id as sent: the runner gives the second a fresh one", async () => {
    const call = { id: "call_1", type: "function", function: { name: "shell", arguments: "{}" } };
    const srv = await startServer({
      body: completionBody({ tool_calls: [call, call] }, "tool_calls"),
    });
    const reply = await clientFor(srv).complete(request());
    expect(reply.message.toolCalls.map((each) => each.id)).toEqual(["call_1", "call_1"]);
  });

  it.each([
    ["stop", "stop"],
    ["tool_calls", "tool_calls"],
    ["length", "length"],
    ["content_filter", "content_filter"],
    ["function_call", "tool_calls"],
    ["eos", "other"],
    [null, "other"],
  ])("maps finish_reason %j to %j", async (providerReason, expected) => {
    const srv = await startServer({ body: completionBody({ content: "ok" }, providerReason) });
    const reply = await clientFor(srv).complete(request());
    expect(reply.finishReason).toBe(expected);
  });

  const call = { id: "call_1", type: "function", function: { name: "shell", arguments: "{}" } };
  it.each<[string, unknown, string]>([
    ["an empty object", {}, "Malformed model reply: no choices"],
    ["an empty choices list", { choices: [] }, "Malformed model reply: no choices"],
    ["a JSON array", [1, 2], "Malformed model reply: expected a JSON object, got an array"],
    [
      "a choice without message",
      { choices: [{ index: 0 }] },
      "Malformed model reply: choice 0 has no message",
    ],
    [
      "a choice that is not an object",
      { choices: ["hi"] },
      "Malformed model reply: choice 0 is not an object",
    ],
    [
      "content that is not a string",
      completionBody({ content: 42 }, "stop"),
      "Malformed model reply: message content is not a string",
    ],
    [
      "tool_calls that is not a list",
      completionBody({ tool_calls: { id: "call_1" } }, "tool_calls"),
      "Malformed model reply: tool_calls is not a list",
    ],
    [
      "a tool call that is not an object",
      completionBody({ tool_calls: ["call_1"] }, "tool_calls"),
      "Malformed model reply: tool call 0 is not an object",
    ],
    [
      "a tool call without id",
      completionBody({ tool_calls: [call, { ...call, id: undefined }] }, "tool_calls"),
      "Malformed model reply: tool call 1 has no id",
    ],
    [
      "a tool call with an empty id",
      completionBody({ tool_calls: [{ ...call, id: "" }] }, "tool_calls"),
      "Malformed model reply: tool call 0 has no id",
    ],
    [
      "a tool call without function",
      completionBody({ tool_calls: [{ id: "call_1", type: "function" }] }, "tool_calls"),
      "Malformed model reply: tool call 0 has no function",
    ],
    [
      "a tool call without name",
      completionBody({ tool_calls: [{ ...call, function: { arguments: "{}" } }] }, "tool_calls"),
      "Malformed model reply: tool call 0 has no function name",
    ],
    [
      "a tool call that is not a function call",
      completionBody(
        { tool_calls: [{ id: "call_1", type: "custom", custom: { name: "shell", input: "ls" } }] },
        "tool_calls",
      ),
      'Malformed model reply: tool call 0 has type "custom", expected "function"',
    ],
    [
      "tool call arguments that are an object",
      completionBody(
        { tool_calls: [{ ...call, function: { name: "shell", arguments: { command: "ls" } } }] },
        "tool_calls",
      ),
      "Malformed model reply: tool call 0 arguments are not a string",
    ],
    [
      "tool call arguments that are missing",
      completionBody({ tool_calls: [{ ...call, function: { name: "shell" } }] }, "tool_calls"),
      "Malformed model reply: tool call 0 arguments are not a string",
    ],
    [
      "an error object with status 200",
      { error: { message: "model is loading\nplease wait" } },
      "The model provider returned an error: model is loading please wait",
    ],
  ])("rejects %s", async (_name, body, message) => {
    const srv = await startServer({ body });
    await rejectionOf(clientFor(srv).complete(request()), ModelProviderError, message);
  });

  it("accepts a tool call without a type field, as some compatible servers send", async () => {
    const srv = await startServer({
      body: completionBody(
        { tool_calls: [{ id: "c1", function: { name: "shell", arguments: "{}" } }] },
        "tool_calls",
      ),
    });
    const reply = await clientFor(srv).complete(request());
    expect(reply.message.toolCalls).toEqual([{ id: "c1", name: "shell", arguments: "{}" }]);
  });

  it("rejects a reply that is not JSON, quoting its start", async () => {
    const srv = await startServer({ rawBody: "<html><body>Welcome to nginx!</body></html>" });
    await rejectionOf(
      clientFor(srv).complete(request()),
      ModelProviderError,
      'Malformed model reply: expected a JSON object, got text starting "<html><body>Welcome to nginx!</body></html>"',
    );
  });
});

describe("OpenAIChatModelClient failures", () => {
  it("reports 401 without the provider's text, which may quote the key", async () => {
    const srv = await startServer(
      chatErrorReply(401, `Incorrect API key provided: ${API_KEY}.`, { code: "invalid_api_key" }),
    );
    await rejectionOf(
      clientFor(srv).complete(request()),
      ModelProviderError,
      "The model provider rejected the API key (HTTP 401): check OPENAI_API_KEY",
    );
  });

  it("reports 404 naming the model and the base URL", async () => {
    const srv = await startServer(
      chatErrorReply(404, "The model `test-model-1` does not exist", { code: "model_not_found" }),
    );
    await rejectionOf(
      clientFor(srv).complete(request()),
      ModelProviderError,
      `Model "test-model-1" not found at ${srv.baseURL} (HTTP 404): check --model or OPENAI_MODEL`,
    );
  });

  it.each([
    [
      "429 with the provider's reason",
      chatErrorReply(429, "You exceeded your current quota."),
      "The model provider is rate limiting requests (HTTP 429): You exceeded your current quota.",
    ],
    [
      "a 500 with its status",
      chatErrorReply(500, "The server had an error"),
      "The model provider had a server error (HTTP 500): The server had an error",
    ],
    [
      "a 503 without a JSON body",
      { status: 503, rawBody: "upstream unavailable" },
      "The model provider had a server error (HTTP 503)",
    ],
  ] as const)("reports %s", async (_case, reply, message) => {
    const srv = await startServer(reply);
    await rejectionOf(clientFor(srv).complete(request()), ModelProviderError, message);
  });

  // A 400's reason on one line, with the client's key redacted where it is long enough to be one.
  it.each([
    [
      "reports other statuses with the provider's reason on one line, key redacted",
      `Invalid 'messages[2]':\nbad role (key ${API_KEY})`,
      {},
      "The model provider rejected the request (HTTP 400): Invalid 'messages[2]': bad role (key [redacted])",
    ],
    [
      "leaves a short dummy key (OPENAI_API_KEY=x) unredacted, so messages stay readable",
      "max_tokens exceeds the context window",
      { apiKey: "x" },
      "The model provider rejected the request (HTTP 400): max_tokens exceeds the context window",
    ],
    [
      "redacts a key from 8 characters on",
      "bad key 12345678 and 1234567",
      { apiKey: "12345678" },
      "The model provider rejected the request (HTTP 400): bad key [redacted] and 1234567",
    ],
  ] as const)("%s", async (_name, reason, options, message) => {
    const srv = await startServer(chatErrorReply(400, reason));
    await rejectionOf(clientFor(srv, options).complete(request()), ModelProviderError, message);
  });

  it("retries a 500 and succeeds when maxRetries allows", async () => {
    const srv = await startServer(
      chatErrorReply(500, "transient", { headers: { "retry-after-ms": "0" } }),
      chatTextReply("recovered"),
    );
    const reply = await clientFor(srv, { maxRetries: 1 }).complete(request());
    expect(reply.message.content).toBe("recovered");
    expect(srv.requests).toHaveLength(2);
    expect(srv.requests[1]?.body).toEqual(srv.requests[0]?.body);
  });

  it("says the request was sent once per attempt, each before its reply was read", async () => {
    const srv = await startServer(
      chatErrorReply(500, "transient", { headers: { "retry-after-ms": "0" } }),
      chatTextReply("recovered"),
    );
    const sentWhen: number[] = [];
    let replyStarted = 0;
    const reply = await clientFor(srv, { maxRetries: 1 }).complete({
      ...request(),
      onSent: () => sentWhen.push(srv.requests.length),
      onReplyStarted: () => (replyStarted += 1),
    });
    expect(reply.message.content).toBe("recovered");
    // Once, for the reply that was read, not for the refused attempt.
    expect(replyStarted).toBe(1);
    // Each attempt's body was handed over before the server had read it whole and answered.
    expect(sentWhen).toHaveLength(2);
    expect(sentWhen.every((seen, attempt) => seen <= attempt + 1)).toBe(true);
  });

  it("does not retry when maxRetries is 0", async () => {
    const srv = await startServer(chatErrorReply(500, "transient"), chatTextReply("unused"));
    await rejectionOf(
      clientFor(srv).complete(request()),
      ModelProviderError,
      "The model provider had a server error (HTTP 500): transient",
    );
    expect(srv.requests).toHaveLength(1);
  });

  it("does not retry a 500 that says x-should-retry: false (the test server out of script)", async () => {
    const srv = await startServer();
    await rejectionOf(
      clientFor(srv, { maxRetries: 2 }).complete(request()),
      ModelProviderError,
      "The model provider had a server error (HTTP 500): ChatCompletionsServer has no scripted reply left",
    );
    expect(srv.requests).toHaveLength(1);
  });

  it("reports a refused connection naming the base URL", async () => {
    const srv = await startServer();
    const { baseURL } = srv;
    await srv.close();
    server = undefined;
    await rejectionOf(
      clientFor(baseURL).complete(request()),
      ModelProviderError,
      `Cannot connect to the model provider at ${baseURL}: connection refused (is the server running? agent config shows where the base URL comes from)`,
    );
  });

  it("reports a timeout saying after how long", async () => {
    const srv = await startServer(NEVER_ANSWER);
    await rejectionOf(
      clientFor(srv, { timeoutMs: 200 }).complete(request()),
      ModelProviderError,
      `Model request to ${srv.baseURL} timed out after 200 ms`,
    );
  });

  it("counts the attempts when a timeout was retried", async () => {
    const srv = await startServer(NEVER_ANSWER, NEVER_ANSWER);
    await rejectionOf(
      clientFor(srv, { timeoutMs: 100, maxRetries: 1 }).complete(request()),
      ModelProviderError,
      `Model request to ${srv.baseURL} timed out after 100 ms (2 attempts)`,
    );
    expect(srv.requests).toHaveLength(2);
  });

  it("refuses a base URL with credentials, which fetch would echo in its error", () => {
    expect(() => clientFor("http://user:hunter2@127.0.0.1:1/v1")).toThrow(
      new RangeError("baseURL must not contain a user name or password"),
    );
  });
});

describe("OpenAIChatModelClient cancellation and pairing", () => {
  it("turns an abort during the request into RunCancelledError", async () => {
    const srv = await startServer(NEVER_ANSWER);
    const controller = new AbortController();
    const pending = clientFor(srv, { maxRetries: 2 }).complete({
      ...request(),
      signal: controller.signal,
    });
    await srv.waitForRequests(1);
    controller.abort();
    await rejectionOf(pending, RunCancelledError, "Run cancelled");
    expect(srv.requests).toHaveLength(1);
  });

  it("cancels at once during a retry back-off instead of waiting it out", async () => {
    // Ten minutes of Retry-After: without prompt cancellation this test runs into its timeout.
    const srv = await startServer(
      chatErrorReply(503, "busy", { headers: { "retry-after-ms": "600000" } }),
      chatTextReply("unused"),
    );
    const controller = new AbortController();
    const pending = clientFor(srv, { maxRetries: 1 }).complete({
      ...request(),
      signal: controller.signal,
    });
    await srv.waitForReplies(1);
    // Give the client a moment to read the 503 and enter its back-off; aborting earlier would only
    // cancel the fetch, which the SDK handles by itself.
    await new Promise((resolve) => setTimeout(resolve, 200));
    controller.abort();
    await rejectionOf(pending, RunCancelledError, "Run cancelled");
    expect(srv.requests).toHaveLength(1);
  });

  it("sends nothing when the signal is already aborted", async () => {
    const srv = await startServer(chatTextReply("unused"));
    await rejectionOf(
      clientFor(srv).complete({ ...request(), signal: AbortSignal.abort() }),
      RunCancelledError,
      "Run cancelled",
    );
    expect(srv.requests).toHaveLength(0);
  });

  it("rejects a history with an unanswered tool call before sending anything", async () => {
    const srv = await startServer(chatTextReply("unused"));
    const history: Message[] = [
      ...PROMPT,
      {
        role: "assistant",
        content: null,
        toolCalls: [{ id: "call_1", name: "shell", arguments: "{}" }],
      },
    ];
    await rejectionOf(
      clientFor(srv).complete(request(history, [SHELL_TOOL])),
      ToolPairingError,
      'Missing tool result for call id "call_1" at index 3',
    );
    expect(srv.requests).toHaveLength(0);
  });

  it("rejects an orphan tool message before sending anything", async () => {
    const srv = await startServer(chatTextReply("unused"));
    const history: Message[] = [...PROMPT, { role: "tool", toolCallId: "call_9", content: "x" }];
    await rejectionOf(
      clientFor(srv).complete(request(history)),
      ToolPairingError,
      'Orphan tool message at index 2 for call id "call_9"',
    );
    expect(srv.requests).toHaveLength(0);
  });
});

describe("OpenAIChatModelClient and the run's signal", () => {
  it("leaves no listener on the run's signal and no warning after 15 requests, streamed, whole or failed", async () => {
    const replies: ScriptedReply[] = [];
    for (let index = 0; index < 5; index += 1) {
      replies.push(chatStreamTextReply([`streamed ${index}`]), chatTextReply(`whole ${index}`));
      replies.push(chatErrorReply(500, "boom", { headers: { "x-should-retry": "false" } }));
    }
    const srv = await startServer(...replies);
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on("warning", onWarning);
    try {
      const client = clientFor(srv);
      const run = new AbortController();
      for (let index = 0; index < 15; index += 1) {
        await client.complete({ ...request(), signal: run.signal }).catch(() => undefined);
      }
      expect(srv.requests).toHaveLength(15);
      expect(getEventListeners(run.signal, "abort")).toHaveLength(0);
      // Node emits its warning on the next tick; let one pass before looking.
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect(warnings.map((warning) => warning.name)).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });
});
