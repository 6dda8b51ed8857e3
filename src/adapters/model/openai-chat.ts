import type { Agent } from "node:http";
import OpenAI from "openai";
import type { ClientOptions } from "openai";
import type { ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import { ModelProviderError, RunCancelledError } from "../../core/common/agent-errors.js";
import { ToolPairingCheck } from "../../core/ports/messages.js";
import type { ModelClient, ModelReply, ModelRequest } from "../../core/ports/model.js";
import { describeRequestFailure, type FailureContext } from "./openai-chat-errors.js";
import { DEFAULT_BASE_URL } from "./openai-chat-config.js";
import { linkAbort, type LinkedAbort } from "./linked-abort.js";
import { nodeHttpFetch, type LiteRequestInit } from "./node-http-fetch.js";
import { parseChatCompletion } from "./openai-chat-reply.js";
import { ChatRequestBody } from "./openai-chat-body.js";
import { readChatStream } from "./openai-chat-stream.js";
import { withRetries, type ModelRetryNotice, type RetryWait } from "./request-retries.js";

export {
  DEFAULT_BASE_URL,
  DEFAULT_MODEL,
  LOCAL_SERVER_PLACEHOLDER_KEY,
  ModelConfigError,
  resolveOpenAIConfig,
  type Environment,
  type OpenAIConfig,
  type OpenAIConfigFlags,
} from "./openai-chat-config.js";

/**
 * Per attempt, and the longest a stream may fall silent. Ten minutes, because the slowest model
 * people run is a local one on a CPU: at tens of tokens a second it reads a long history for
 * minutes before its first token, and a request timed out there is read again from the start. A
 * dead server is noticed sooner anyway: a refused or reset connection fails at once.
 */
export const DEFAULT_TIMEOUT_MS = 600_000;
/** The SDK's own default: 429, 5xx, connection errors and timeouts are retried with backoff. */
export const DEFAULT_MAX_RETRIES = 2;

export interface OpenAIChatModelClientOptions {
  readonly apiKey: string;
  readonly model: string;
  /** Any OpenAI-compatible server; defaults to DEFAULT_BASE_URL. */
  readonly baseURL?: string;
  readonly organization?: string;
  readonly project?: string;
  readonly timeoutMs?: number;
  readonly maxRetries?: number;
  /** Told of each retry before its wait begins. */
  readonly onRetry?: ((notice: ModelRetryNotice) => void) | undefined;
  /** The wait before a retry (tests pass one that does not sleep). */
  readonly wait?: RetryWait;
  /** The HTTP agent requests go through: node's shared one unless given (the rehearsal's). */
  readonly agent?: Agent;
}

/** The ModelClient port over the chat-completions API, through the official SDK. */
export class OpenAIChatModelClient implements ModelClient {
  readonly #client: OpenAI;
  readonly #model: string;
  readonly #failureContext: FailureContext;
  readonly #maxRetries: number;
  readonly #onRetry: ((notice: ModelRetryNotice) => void) | undefined;
  readonly #wait: RetryWait | undefined;
  readonly #body: ChatRequestBody;
  readonly #pairing = new ToolPairingCheck();

  constructor(options: OpenAIChatModelClientOptions) {
    const baseURL = options.baseURL ?? DEFAULT_BASE_URL;
    const { agent } = options;
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    if (options.apiKey === "") throw new RangeError("apiKey must not be empty");
    if (options.model === "") throw new RangeError("model must not be empty");
    assertUsableBaseURL(baseURL);
    if (!Number.isInteger(timeoutMs) || timeoutMs < 1) {
      throw new RangeError("timeoutMs must be a positive integer");
    }
    if (!Number.isInteger(maxRetries) || maxRetries < 0) {
      throw new RangeError("maxRetries must be a non-negative integer");
    }
    this.#model = options.model;
    this.#body = new ChatRequestBody(options.model);
    this.#onRetry = options.onRetry;
    this.#wait = options.wait;
    this.#failureContext = {
      displayURL: displayURL(baseURL),
      model: options.model,
      timeoutMs,
      apiKey: options.apiKey,
    };
    this.#maxRetries = maxRetries;
    // Everything explicit, so the SDK reads nothing from process.env behind the caller's back, and
    // its logger stays off: failures reach the person once, through our one-line errors.
    this.#client = new OpenAI({
      apiKey: options.apiKey,
      adminAPIKey: null,
      baseURL,
      organization: options.organization ?? null,
      project: options.project ?? null,
      webhookSecret: null,
      timeout: timeoutMs,
      // Retried by us (request-retries.ts), so each retry can be shown and Ctrl-C ends its wait.
      maxRetries: 0,
      logLevel: "off",
      // node:http instead of Node's fetch: undici would cost every start ~30 ms (node-http-fetch.ts).
      fetch: (agent === undefined
        ? nodeHttpFetch
        : (input: string | URL, init: LiteRequestInit = {}) =>
            nodeHttpFetch(input, { ...init, agent })) as unknown as NonNullable<
        ClientOptions["fetch"]
      >,
    });
  }

  async complete(request: ModelRequest): Promise<ModelReply> {
    const { signal } = request;
    if (signal?.aborted === true) throw new RunCancelledError();
    // A history the API would reject is our bug: fail before spending a request on it.
    // Checked and serialised turn by turn: only the messages new since the last request are read.
    this.#pairing.check(request.messages);
    // The SDK is handed the body as the parts kept between turns, each message serialised once
    // (openai-chat-body.ts): it passes an ArrayBuffer view through as it is, to our fetch, which
    // writes the parts; the params only tell the SDK the reply is a stream.
    const params: ChatCompletionCreateParamsStreaming = {
      model: this.#model,
      messages: [],
      stream: true,
    };
    const body = this.#body.parts(request.messages, request.tools, request.onSent);
    const bodyOptions = { body, headers: { "content-type": "application/json" } };
    // Each attempt gets a signal of its own, linked to the run's until the reply has been read.
    let attempt: LinkedAbort | undefined;
    let attemptsMade = 0;
    try {
      // The raw response, so that a server which ignores `stream` and answers with one JSON body
      // (its content type says so) still works: that is the signal to read it whole.
      const response = await settleOrCancel(
        withRetries(
          () => {
            attemptsMade += 1;
            attempt?.unlink();
            attempt = signal === undefined ? undefined : linkAbort(signal);
            return this.#client.chat.completions
              .create(
                params,
                attempt === undefined ? bodyOptions : { ...bodyOptions, signal: attempt.signal },
              )
              .asResponse();
          },
          {
            maxRetries: this.#maxRetries,
            timeoutMs: this.#failureContext.timeoutMs,
            signal,
            onRetry: this.#onRetry,
            ...(this.#wait === undefined ? {} : { wait: this.#wait }),
          },
        ),
        signal,
      );
      request.onReplyStarted?.();
      const readOptions = {
        signal,
        onTextDelta: request.onTextDelta,
        idleTimeoutMs: this.#failureContext.timeoutMs,
        stalled: () => new ModelProviderError(stalledMessage(this.#failureContext)),
      };
      if (isEventStream(response)) {
        return parseChatCompletion(await readChatStream(response, readOptions));
      }
      const reply = parseChatCompletion(await settleOrCancel(readWholeBody(response), signal));
      if (reply.message.content !== null && reply.message.content !== "") {
        request.onTextDelta?.(reply.message.content);
      }
      return reply;
    } catch (error) {
      throw describeRequestFailure(error, this.#failureContext, signal, attemptsMade);
    } finally {
      attempt?.unlink();
    }
  }
}

function isEventStream(response: Response): boolean {
  return (response.headers.get("content-type") ?? "").toLowerCase().includes("text/event-stream");
}

/** A whole reply, as the SDK would read it: JSON when it says so, text otherwise. */
async function readWholeBody(response: Response): Promise<unknown> {
  const type = (response.headers.get("content-type") ?? "").toLowerCase();
  const text = await response.text();
  if (!type.includes("json")) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function stalledMessage(context: FailureContext): string {
  const seconds = context.timeoutMs / 1000;
  return `Model stream from ${context.displayURL} stalled: nothing arrived for ${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

/** Ctrl-C must not wait for whatever is in flight (a request, a retry's wait) to notice it. */
async function settleOrCancel<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work;
  let onAbort = (): void => undefined;
  const cancelled = new Promise<never>((_resolve, reject) => {
    onAbort = () => {
      reject(new RunCancelledError());
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([work, cancelled]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

/** fetch refuses URLs with credentials, and its error would print them: refuse them first. */
function assertUsableBaseURL(baseURL: string): void {
  if (!URL.canParse(baseURL)) throw new RangeError("baseURL is not a valid URL");
  const url = new URL(baseURL);
  if (url.username !== "" || url.password !== "") {
    throw new RangeError("baseURL must not contain a user name or password");
  }
}

/** The endpoint as shown to the person anywhere: no credentials, query (keys travel there) or fragment. */
export function displayURL(baseURL: string): string {
  const url = new URL(baseURL);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}
