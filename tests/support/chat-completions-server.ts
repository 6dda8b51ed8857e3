/**
 * A local stand-in for an OpenAI-compatible server, for adapter tests, end-to-end tests of the real
 * CLI and benchmarks. It listens on 127.0.0.1 (random port), answers `POST /v1/chat/completions` and
 * `POST /chat/completions` from a queue of scripted replies, and records every request it receives
 * (any path), so a test can assert exactly what the harness sent.
 *
 *   const server = await ChatCompletionsServer.start([chatTextReply("hello")]);
 *   // point the adapter (or OPENAI_BASE_URL of a spawned CLI) at server.baseURL
 *   expect(server.requests[0]?.body).toMatchObject({ model: "gpt-4.1-mini" });
 *   await server.close();
 *
 * A scripted reply is an HTTP reply, `NEVER_ANSWER` (the socket stays open until `close()`, for
 * timeout and cancellation tests), or a function of the request returning either. A chat request
 * arriving when the queue is empty gets a 500 saying so, marked `x-should-retry: false` so the SDK
 * fails at once instead of retrying.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";

export interface RecordedRequest {
  readonly method: string;
  /** The request path including any query string, e.g. `/v1/chat/completions`. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly rawBody: string;
  /** The body parsed as JSON, or `undefined` when it is not JSON. */
  readonly body: unknown;
}

export interface HttpReply {
  /** Defaults to 200. */
  readonly status?: number;
  /** Serialised as JSON with `content-type: application/json`. Ignored when `rawBody` is set. */
  readonly body?: unknown;
  /** Sent verbatim (content type from `headers`, default `text/plain`). */
  readonly rawBody?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * A streamed reply: sent as `text/event-stream`, one `data:` event per item, each after its delay,
   * then `data: [DONE]` (unless `done: false`). Overrides `body` and `rawBody`.
   */
  readonly events?: readonly StreamEvent[];
  readonly done?: boolean;
}

export interface StreamEvent {
  /** Sent as an `event:` line before the data (e.g. "error"); none by default. */
  readonly event?: string;
  /** JSON-encoded unless it is a string, which is sent verbatim. */
  readonly data: unknown;
  /** Wait this long before sending the event. */
  readonly delayMs?: number;
  /** Wait for this before sending the event: the test says when, rather than a clock. */
  readonly until?: Promise<unknown>;
}

export const NEVER_ANSWER = Object.freeze({ neverAnswer: true as const });
export type NeverAnswer = typeof NEVER_ANSWER;

type ReplyOutcome = HttpReply | NeverAnswer;
export type ScriptedReply =
  ReplyOutcome | ((request: RecordedRequest) => ReplyOutcome | Promise<ReplyOutcome>);

const CHAT_PATHS = new Set(["/v1/chat/completions", "/chat/completions"]);

export class ChatCompletionsServer {
  /** Every request received, in arrival order, whatever its path. */
  readonly requests: RecordedRequest[] = [];
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  /** `http://127.0.0.1:PORT/v1`, what OPENAI_BASE_URL should be. */
  readonly baseURL: string;
  readonly #server: Server;
  readonly #queue: ScriptedReply[];
  readonly #waiters: (() => void)[] = [];
  #repliesSent = 0;

  private constructor(server: Server, replies: readonly ScriptedReply[]) {
    this.#server = server;
    this.#queue = [...replies];
    this.url = `http://127.0.0.1:${portOf(server)}`;
    this.baseURL = `${this.url}/v1`;
  }

  static async start(replies: readonly ScriptedReply[] = []): Promise<ChatCompletionsServer> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
    const instance = new ChatCompletionsServer(server, replies);
    server.on("request", (request: IncomingMessage, response) => {
      void instance.#handle(request).then(
        (outcome) => {
          if ("neverAnswer" in outcome) return;
          if (outcome.events !== undefined) {
            void sendEvents(response, outcome).then(() => {
              instance.#repliesSent += 1;
              instance.#wakeWaiters();
            });
            return;
          }
          const headers: Record<string, string> = {
            "content-type": outcome.rawBody === undefined ? "application/json" : "text/plain",
            ...outcome.headers,
          };
          response.writeHead(outcome.status ?? 200, headers);
          response.end(outcome.rawBody ?? JSON.stringify(outcome.body ?? null), () => {
            instance.#repliesSent += 1;
            instance.#wakeWaiters();
          });
        },
        (error: unknown) => {
          response.writeHead(500, { "content-type": "text/plain", "x-should-retry": "false" });
          response.end(`ChatCompletionsServer script failed: ${String(error)}`);
        },
      );
    });
    return instance;
  }

  /** Adds replies to the end of the queue. */
  enqueue(...replies: ScriptedReply[]): void {
    this.#queue.push(...replies);
  }

  /** How many scripted replies have not been served yet. */
  get pendingReplies(): number {
    return this.#queue.length;
  }

  /** Request bodies sent to the chat-completions endpoint, parsed, in order. */
  chatRequestBodies(): unknown[] {
    return this.requests
      .filter((request) => request.method === "POST" && CHAT_PATHS.has(pathOnly(request.path)))
      .map((request) => request.body);
  }

  /** Resolves once at least `count` requests have arrived. */
  async waitForRequests(count: number): Promise<void> {
    while (this.requests.length < count) {
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  /** Resolves once at least `count` replies have been written out in full (NEVER_ANSWER excluded). */
  async waitForReplies(count: number): Promise<void> {
    while (this.#repliesSent < count) {
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  #wakeWaiters(): void {
    for (const wake of this.#waiters.splice(0)) wake();
  }

  /** Stops listening and drops open connections, including ones left hanging by NEVER_ANSWER. */
  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve, reject) => {
      this.#server.close((error) => {
        if (error === undefined) resolve();
        else reject(error);
      });
    });
  }

  async #handle(request: IncomingMessage): Promise<ReplyOutcome> {
    const rawBody = await readBody(request);
    const recorded: RecordedRequest = {
      method: request.method ?? "",
      path: request.url ?? "",
      headers: request.headers,
      rawBody,
      body: parseJson(rawBody),
    };
    this.requests.push(recorded);
    this.#wakeWaiters();

    if (recorded.method !== "POST" || !CHAT_PATHS.has(pathOnly(recorded.path))) {
      return chatErrorReply(404, `No route for ${recorded.method} ${recorded.path}`, {
        headers: { "x-should-retry": "false" },
      });
    }
    const next = this.#queue.shift();
    if (next === undefined) {
      return chatErrorReply(500, "ChatCompletionsServer has no scripted reply left", {
        headers: { "x-should-retry": "false" },
      });
    }
    return typeof next === "function" ? next(recorded) : next;
  }
}

export interface ChatUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
}

export function chatUsage(promptTokens: number, completionTokens: number): ChatUsage {
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
}

export interface CompletionOptions {
  /** Defaults to "stop" for text and "tool_calls" for tool calls. */
  readonly finishReason?: string | null;
  readonly usage?: ChatUsage;
  readonly model?: string;
}

/** A whole chat-completion body with one choice holding `message` as given. */
export function completionBody(
  message: Readonly<Record<string, unknown>>,
  finishReason: string | null,
  options: Omit<CompletionOptions, "finishReason"> = {},
): Record<string, unknown> {
  return {
    id: "chatcmpl-test",
    object: "chat.completion",
    created: 1_700_000_000,
    model: options.model ?? "test-model",
    choices: [
      { index: 0, message: { role: "assistant", ...message }, finish_reason: finishReason },
    ],
    ...(options.usage === undefined ? {} : { usage: options.usage }),
  };
}

export function chatTextReply(text: string, options: CompletionOptions = {}): HttpReply {
  return {
    body: completionBody({ content: text }, options.finishReason ?? "stop", options),
  };
}

export interface ScriptedToolCall {
  readonly id: string;
  readonly name: string;
  /** A string is sent verbatim; anything else is JSON-encoded first. */
  readonly arguments: unknown;
}

export function chatToolCallsReply(
  calls: readonly ScriptedToolCall[],
  options: CompletionOptions & { readonly content?: string | null } = {},
): HttpReply {
  const toolCalls = calls.map((call) => ({
    id: call.id,
    type: "function",
    function: {
      name: call.name,
      arguments:
        typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
    },
  }));
  return {
    body: completionBody(
      { content: options.content ?? null, tool_calls: toolCalls },
      options.finishReason ?? "tool_calls",
      options,
    ),
  };
}

/** An error in the shape OpenAI uses: `{ error: { message, type, code, param } }`. */
export function chatErrorReply(
  status: number,
  message: string,
  options: {
    readonly type?: string;
    readonly code?: string | null;
    readonly headers?: Readonly<Record<string, string>>;
  } = {},
): HttpReply {
  return {
    status,
    body: {
      error: {
        message,
        type: options.type ?? "invalid_request_error",
        code: options.code ?? null,
        param: null,
      },
    },
    ...(options.headers === undefined ? {} : { headers: options.headers }),
  };
}

async function sendEvents(response: ServerResponse, outcome: HttpReply): Promise<void> {
  response.writeHead(outcome.status ?? 200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    ...outcome.headers,
  });
  for (const event of outcome.events ?? []) {
    if (event.delayMs !== undefined) await delayUnlessClosed(response, event.delayMs);
    if (event.until !== undefined) await untilUnlessClosed(response, event.until);
    if (response.destroyed) return;
    const data = typeof event.data === "string" ? event.data : JSON.stringify(event.data);
    const type = event.event === undefined ? "" : `event: ${event.event}\n`;
    response.write(`${type}data: ${data}\n\n`);
  }
  if (outcome.done !== false) response.write("data: [DONE]\n\n");
  await new Promise<void>((resolve) => response.end(resolve));
}

/** Waits for `signal`, or less when the client goes away first. */
function untilUnlessClosed(response: ServerResponse, signal: Promise<unknown>): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      response.off("close", done);
      resolve();
    };
    response.on("close", done);
    void signal.then(done, done);
  });
}

/**
 * Waits `ms`, or less when the client goes away first: a long delay (a test that cancels and must
 * not wait it out) then leaves no timer behind.
 */
function delayUnlessClosed(response: ServerResponse, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      response.off("close", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    response.on("close", done);
  });
}

/** One streamed chunk with one choice: `delta` as given, and the finish reason when it ends. */
export function chunkBody(
  delta: Readonly<Record<string, unknown>>,
  finishReason: string | null = null,
): Record<string, unknown> {
  return {
    id: "chatcmpl-test",
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model: "test-model",
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

/** The last chunk `stream_options.include_usage` asks for: no choices, only usage. */
export function usageChunk(usage: ChatUsage): Record<string, unknown> {
  return {
    id: "chatcmpl-test",
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model: "test-model",
    choices: [],
    usage,
  };
}

export interface StreamOptions {
  /** Wait this long before each piece. */
  readonly delayMs?: number;
  readonly usage?: ChatUsage;
}

/** Text streamed in the given pieces, then "stop" (and usage when given). */
export function chatStreamTextReply(
  pieces: readonly string[],
  options: StreamOptions = {},
): HttpReply {
  const delay = options.delayMs === undefined ? {} : { delayMs: options.delayMs };
  return {
    events: [
      { data: chunkBody({ role: "assistant", content: "" }) },
      ...pieces.map((piece) => ({ data: chunkBody({ content: piece }), ...delay })),
      { data: chunkBody({}, "stop") },
      ...(options.usage === undefined ? [] : [{ data: usageChunk(options.usage) }]),
    ],
  };
}

/** A streamed piece of text, sent once `until` (when given) has settled. */
export interface GatedPiece {
  readonly text: string;
  readonly until?: Promise<unknown>;
}

/** Text streamed in pieces, each when the test lets it go, then "stop". */
export function chatGatedStreamReply(pieces: readonly GatedPiece[]): HttpReply {
  return {
    events: [
      { data: chunkBody({ role: "assistant", content: "" }) },
      ...pieces.map(({ text, until }) => ({
        data: chunkBody({ content: text }),
        ...(until === undefined ? {} : { until }),
      })),
      { data: chunkBody({}, "stop") },
    ],
  };
}

/** A promise the test settles when it is ready: `opened` waits for `open()`. */
export function streamGate(): { readonly opened: Promise<void>; open(): void } {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/**
 * Optional text, then each tool call streamed as providers do: id and name first, then the
 * arguments in pieces of `argumentPiece` characters.
 */
export function chatStreamToolCallsReply(
  calls: readonly ScriptedToolCall[],
  options: StreamOptions & {
    readonly content?: readonly string[];
    readonly argumentPiece?: number;
  } = {},
): HttpReply {
  const delay = options.delayMs === undefined ? {} : { delayMs: options.delayMs };
  const piece = options.argumentPiece ?? 8;
  const events: StreamEvent[] = [{ data: chunkBody({ role: "assistant", content: null }) }];
  for (const text of options.content ?? []) {
    events.push({ data: chunkBody({ content: text }), ...delay });
  }
  for (const [index, call] of calls.entries()) {
    const args =
      typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
    events.push({
      data: chunkBody({
        tool_calls: [
          { index, id: call.id, type: "function", function: { name: call.name, arguments: "" } },
        ],
      }),
      ...delay,
    });
    for (let at = 0; at < args.length; at += piece) {
      events.push({
        data: chunkBody({
          tool_calls: [{ index, function: { arguments: args.slice(at, at + piece) } }],
        }),
        ...delay,
      });
    }
  }
  events.push({ data: chunkBody({}, "tool_calls") });
  if (options.usage !== undefined) events.push({ data: usageChunk(options.usage) });
  return { events };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      resolve(Buffer.concat(chunks).toString("utf8"));
    });
    request.on("error", reject);
  });
}

function portOf(server: Server): number {
  const address = server.address();
  if (address === null || typeof address === "string") {
    throw new Error("ChatCompletionsServer is not listening on a TCP port");
  }
  return address.port;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function pathOnly(path: string): string {
  const query = path.indexOf("?");
  return query === -1 ? path : path.slice(0, query);
}
