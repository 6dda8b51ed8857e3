import { Agent } from "node:http";
import { createServer, type LookupFunction, type Server } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  OpenAIChatModelClient,
  type OpenAIChatModelClientOptions,
} from "../../../src/adapters/model/openai-chat.js";
import { APIConnectionError } from "openai";
import {
  abortableWait,
  withRetries,
  type ModelRetryNotice,
} from "../../../src/adapters/model/request-retries.js";
import { ModelProviderError, RunCancelledError } from "../../../src/core/common/agent-errors.js";
import type { ModelRequest } from "../../../src/core/ports/model.js";
import {
  ChatCompletionsServer,
  NEVER_ANSWER,
  chatErrorReply,
  chatTextReply,
  type ScriptedReply,
} from "../../support/chat-completions-server.js";

const REQUEST: ModelRequest = { messages: [{ role: "user", content: "hi" }], tools: [] };

let server: ChatCompletionsServer | undefined;
let resetter: Server | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  const open = resetter;
  resetter = undefined;
  if (open !== undefined) await new Promise((resolve) => open.close(resolve));
});

async function startServer(...replies: ScriptedReply[]): Promise<ChatCompletionsServer> {
  server = await ChatCompletionsServer.start(replies);
  return server;
}

/** A server that accepts each connection and drops it at once: the client sees a reset. */
async function startResetter(): Promise<{ baseURL: string; connections: () => number }> {
  let connections = 0;
  resetter = createServer((socket) => {
    connections += 1;
    socket.resetAndDestroy();
  });
  await new Promise<void>((resolve) => resetter?.listen(0, "127.0.0.1", resolve));
  const address = resetter.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return { baseURL: `http://127.0.0.1:${String(port)}/v1`, connections: () => connections };
}

/** The client, with every retry and every wait recorded; the waits end at once. */
function recordingClient(
  baseURL: string,
  options: Partial<OpenAIChatModelClientOptions> = {},
): { client: OpenAIChatModelClient; notices: ModelRetryNotice[]; waits: number[] } {
  const notices: ModelRetryNotice[] = [];
  const waits: number[] = [];
  const client = new OpenAIChatModelClient({
    apiKey: "sk-test",
    model: "m",
    baseURL,
    onRetry: (notice) => notices.push(notice),
    wait: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
    ...options,
  });
  return { client, notices, waits };
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => new Error("expected a rejection"),
    (reason: unknown) => reason,
  );
}

describe("retrying a model request", () => {
  it("announces each retry of a reset connection before waiting 2 s, then 4 s", async () => {
    const { baseURL, connections } = await startResetter();
    const { client, notices, waits } = recordingClient(baseURL, { maxRetries: 2 });
    const error = await failure(client.complete(REQUEST));
    expect(notices).toEqual([
      { delayMs: 2000, retry: 1, retries: 2, reason: "connection reset" },
      { delayMs: 4000, retry: 2, retries: 2, reason: "connection reset" },
    ]);
    expect(waits).toEqual([2000, 4000]);
    expect(connections()).toBe(3);
    expect(error).toBeInstanceOf(ModelProviderError);
    expect((error as Error).message).toBe(
      `Cannot connect to the model provider at ${baseURL}: connection reset by the server (3 attempts)`,
    );
  });

  it("names a refused connection", async () => {
    const srv = await startServer();
    const { baseURL } = srv;
    await srv.close();
    server = undefined;
    const { client, notices } = recordingClient(baseURL, { maxRetries: 1 });
    await failure(client.complete(REQUEST));
    expect(notices).toEqual([
      { delayMs: 2000, retry: 1, retries: 1, reason: "connection refused" },
    ]);
  });

  it("waits what the server asks for, and succeeds on the retry", async () => {
    const srv = await startServer(
      chatErrorReply(503, "busy", { headers: { "retry-after": "7" } }),
      chatErrorReply(429, "slow down"),
      chatTextReply("recovered"),
    );
    const { client, notices } = recordingClient(srv.baseURL, { maxRetries: 3 });
    const reply = await client.complete(REQUEST);
    expect(reply.message.content).toBe("recovered");
    expect(notices).toEqual([
      { delayMs: 7000, retry: 1, retries: 3, reason: "server error (HTTP 503)" },
      { delayMs: 4000, retry: 2, retries: 3, reason: "rate limited (HTTP 429)" },
    ]);
  });

  it("says how long it waited for a reply that never came", async () => {
    const srv = await startServer(NEVER_ANSWER, NEVER_ANSWER);
    const { client, notices } = recordingClient(srv.baseURL, { maxRetries: 1, timeoutMs: 100 });
    await failure(client.complete(REQUEST));
    expect(notices).toEqual([
      { delayMs: 2000, retry: 1, retries: 1, reason: "no reply within 0.1 s" },
    ]);
    expect(srv.requests).toHaveLength(2);
  });

  it("does not retry a host name that does not resolve, but does a resolver that could not answer", async () => {
    const dnsFailure = (code: string) =>
      new APIConnectionError({
        cause: Object.assign(new Error(`getaddrinfo ${code} api.exampel.com`), { code }),
      });
    let attempts = 0;
    const notices: ModelRetryNotice[] = [];
    const options = {
      maxRetries: 2,
      timeoutMs: 1000,
      signal: undefined,
      wait: () => Promise.resolve(),
      onRetry: (notice: ModelRetryNotice) => notices.push(notice),
    };
    const notFound = await failure(
      withRetries(() => {
        attempts += 1;
        return Promise.reject(dnsFailure("ENOTFOUND"));
      }, options),
    );
    expect(notFound).toBeInstanceOf(APIConnectionError);
    expect(attempts).toBe(1);
    expect(notices).toEqual([]);

    attempts = 0;
    await failure(
      withRetries(() => {
        attempts += 1;
        return Promise.reject(dnsFailure("EAI_AGAIN"));
      }, options),
    );
    expect(attempts).toBe(3);
  });

  it("says a host that does not resolve was tried once, not the retries it was allowed", async () => {
    // The name lookup fails as a mistyped host's would, without asking any resolver.
    const lookup: LookupFunction = (hostname, _options, callback) => {
      callback(
        Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }),
        "",
        4,
      );
    };
    const baseURL = "http://no-such-host.invalid/v1";
    const { client, notices } = recordingClient(baseURL, {
      maxRetries: 2,
      agent: new Agent({ lookup }),
    });
    const error = await failure(client.complete(REQUEST));
    expect(notices).toEqual([]);
    expect(error).toBeInstanceOf(ModelProviderError);
    expect((error as Error).message).toBe(
      `Cannot connect to the model provider at ${baseURL}: host not found (agent config shows where the base URL comes from)`,
    );
  });

  it("does not retry what a retry cannot fix", async () => {
    const srv = await startServer(chatErrorReply(400, "bad request"), chatTextReply("unused"));
    const { client, notices } = recordingClient(srv.baseURL, { maxRetries: 2 });
    await failure(client.complete(REQUEST));
    expect(notices).toEqual([]);
    expect(srv.requests).toHaveLength(1);
  });

  it("stops at once when Ctrl-C comes during a retry's wait, sending nothing more", async () => {
    const { baseURL, connections } = await startResetter();
    const controller = new AbortController();
    let waiting: () => void = () => undefined;
    const waitStarted = new Promise<void>((resolve) => (waiting = resolve));
    const client = new OpenAIChatModelClient({
      apiKey: "sk-test",
      model: "m",
      baseURL,
      maxRetries: 2,
      // The real wait, made ten minutes long: only the abort can end this test in time.
      wait: (_ms, signal) => {
        waiting();
        return abortableWait(600_000, signal);
      },
    });
    const pending = failure(client.complete({ ...REQUEST, signal: controller.signal }));
    await waitStarted;
    controller.abort();
    const error = await pending;
    expect(error).toBeInstanceOf(RunCancelledError);
    expect(connections()).toBe(1);
  });

  it("stops at once when Ctrl-C comes during a request that is never answered", async () => {
    const srv = await startServer(NEVER_ANSWER);
    const controller = new AbortController();
    const { client, notices } = recordingClient(srv.baseURL, { maxRetries: 2 });
    const pending = failure(client.complete({ ...REQUEST, signal: controller.signal }));
    await srv.waitForRequests(1);
    controller.abort();
    expect(await pending).toBeInstanceOf(RunCancelledError);
    expect(notices).toEqual([]);
    expect(srv.requests).toHaveLength(1);
  });
});

describe("the wait before a retry", () => {
  it("ends after its time, and at once on an abort", async () => {
    vi.useFakeTimers();
    try {
      let done = false;
      const waited = abortableWait(4000, undefined).then(() => (done = true));
      await vi.advanceTimersByTimeAsync(3999);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await waited;
      expect(done).toBe(true);
      const controller = new AbortController();
      const aborted = failure(abortableWait(4000, controller.signal));
      controller.abort();
      expect(await aborted).toBeInstanceOf(RunCancelledError);
      expect(await failure(abortableWait(1, AbortSignal.abort()))).toBeInstanceOf(
        RunCancelledError,
      );
    } finally {
      vi.useRealTimers();
    }
  });
});
