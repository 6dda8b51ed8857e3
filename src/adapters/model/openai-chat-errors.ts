import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from "openai";
import { ModelProviderError, RunCancelledError } from "../../core/common/agent-errors.js";
import { errorMessage, oneLine, redact } from "../../core/common/one-line.js";
import { ContextWindowExceededError } from "../../core/context/context-errors.js";
import { isContextOverflow } from "./context-overflow.js";

export interface FailureContext {
  /** The base URL as shown to the person: no credentials, query or fragment. */
  readonly displayURL: string;
  readonly model: string;
  readonly timeoutMs: number;
  /** Never shown, whatever the provider echoes back. */
  readonly apiKey: string;
}

/**
 * One readable line per failure, naming the cause and what to check. The retry loop has already retried
 * what is worth retrying (429, 5xx, connection errors, timeouts) by the time an error reaches here.
 */
export function describeRequestFailure(
  error: unknown,
  context: FailureContext,
  signal: AbortSignal | undefined,
  /** How many requests were sent: a host that does not resolve is tried once, whatever the retries. */
  attemptsMade: number,
): ModelProviderError | RunCancelledError {
  if (error instanceof APIUserAbortError || signal?.aborted === true) {
    return new RunCancelledError();
  }
  if (error instanceof ModelProviderError) return error;
  const message = oneLine(redact(messageFor(error, context, attemptsMade), [context.apiKey]));
  // Too long for the window: the runner compacts the history and tries once more.
  if (isContextOverflow(error)) return new ContextWindowExceededError(message);
  return new ModelProviderError(message);
}

function messageFor(error: unknown, context: FailureContext, attemptsMade: number): string {
  const { displayURL, model } = context;
  // Timeout first: it is a subclass of the connection error.
  if (error instanceof APIConnectionTimeoutError) {
    return `Model request to ${displayURL} timed out after ${formatDuration(context.timeoutMs)}${attempts(attemptsMade)}`;
  }
  if (error instanceof APIConnectionError) {
    return `Cannot connect to the model provider at ${displayURL}: ${connectionCause(error)}${attempts(attemptsMade)}`;
  }
  if (error instanceof AuthenticationError) {
    // The provider's own text may quote part of the key, so it is left out.
    return "The model provider rejected the API key (HTTP 401): check OPENAI_API_KEY";
  }
  if (error instanceof NotFoundError) {
    return `Model ${JSON.stringify(model)} not found at ${displayURL} (HTTP 404): check --model or OPENAI_MODEL`;
  }
  if (error instanceof PermissionDeniedError) {
    return `The model provider refused the request (HTTP 403)${detail(error.error)}`;
  }
  if (error instanceof RateLimitError) {
    return `The model provider is rate limiting requests (HTTP 429)${detail(error.error)}`;
  }
  if (error instanceof InternalServerError) {
    return `The model provider had a server error (HTTP ${error.status})${detail(error.error)}`;
  }
  if (error instanceof APIError) {
    const status = error.status === undefined ? "" : ` (HTTP ${error.status})`;
    return `The model provider rejected the request${status}${detail(error.error)}`;
  }
  const reason = errorMessage(error);
  return `Model request to ${displayURL} failed: ${reason}`;
}

/** The provider's own explanation (`error.message` in the body), when it gave one. */
function detail(body: unknown): string {
  if (typeof body === "object" && body !== null && "message" in body) {
    const { message } = body;
    if (typeof message === "string" && message.trim() !== "") return `: ${message}`;
  }
  return "";
}

function attempts(made: number): string {
  return made <= 1 ? "" : ` (${made} attempts)`;
}

const CONNECTION_CAUSES: ReadonlyMap<string, string> = new Map([
  // The URL may come from OPENAI_BASE_URL or the settings file: agent config says which.
  [
    "ECONNREFUSED",
    "connection refused (is the server running? agent config shows where the base URL comes from)",
  ],
  ["ENOTFOUND", "host not found (agent config shows where the base URL comes from)"],
  ["ECONNRESET", "connection reset by the server"],
]);

/** The system error code (ECONNREFUSED, ENOTFOUND, ...) buried in fetch's cause chain. */
function connectionCause(error: Error): string {
  let current: unknown = error;
  let innermost = error.message;
  for (let depth = 0; depth < 8 && current instanceof Error; depth += 1) {
    innermost = current.message;
    const code = "code" in current ? current.code : undefined;
    if (typeof code === "string" && code !== "") return CONNECTION_CAUSES.get(code) ?? code;
    current = current.cause;
  }
  return innermost;
}

function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const seconds = ms / 1000;
  return Number.isInteger(seconds) ? `${seconds} s` : `${seconds.toFixed(1)} s`;
}
