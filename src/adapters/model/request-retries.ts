/**
 * Our own retry loop around one model request, in place of the SDK's: the person sees each retry
 * as it is decided ("retrying in 4 s (2 of 2): connection reset"), the wait is injected (tests
 * never sleep), and Ctrl-C ends a wait at once. What is retried is what the SDK retries: no
 * connection (but a host name that does not resolve), no reply in time, 408, 409, 429 and 5xx,
 * unless the server says `x-should-retry`.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError } from "openai";
import { RunCancelledError } from "../../core/common/agent-errors.js";

/** One retry, announced before its wait begins. */
export interface ModelRetryNotice {
  /** How long the wait before this retry is. */
  readonly delayMs: number;
  /** Which retry this is, from 1. */
  readonly retry: number;
  /** How many retries there may be in all. */
  readonly retries: number;
  /** Why the last attempt failed, in a few words ("connection reset", "HTTP 503"). */
  readonly reason: string;
}

/** Resolves after `ms`; rejects with `RunCancelledError` as soon as the signal aborts. */
export type RetryWait = (ms: number, signal: AbortSignal | undefined) => Promise<void>;

export interface RetryOptions {
  readonly maxRetries: number;
  /** Per attempt, for the reason of a timeout. */
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
  readonly wait?: RetryWait;
  readonly onRetry?: ((notice: ModelRetryNotice) => void) | undefined;
}

/** No jitter: one person's agent sends one request at a time, there is no herd to spread. */
const FIRST_DELAY_MS = 2000;
const LONGEST_DELAY_MS = 30_000;
/** A Retry-After longer than this is not waited out (the SDK's rule): the backoff is used. */
const LONGEST_RETRY_AFTER_MS = 60_000;

export async function withRetries<T>(attempt: () => Promise<T>, options: RetryOptions): Promise<T> {
  const wait = options.wait ?? abortableWait;
  for (let retry = 1; ; retry += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (retry > options.maxRetries || options.signal?.aborted === true || !isRetryable(error)) {
        throw error;
      }
      const delayMs = retryDelayMs(retry, error);
      options.onRetry?.({
        delayMs,
        retry,
        retries: options.maxRetries,
        reason: retryReason(error, options.timeoutMs),
      });
      await wait(delayMs, options.signal);
    }
  }
}

/** 2 s, 4 s, 8 s, … up to 30 s; or what the server asked for, if that is under a minute. */
export function retryDelayMs(retry: number, error: unknown): number {
  return (
    retryAfterMs(answerOf(error)?.headers) ??
    Math.min(FIRST_DELAY_MS * 2 ** (retry - 1), LONGEST_DELAY_MS)
  );
}

function isRetryable(error: unknown): boolean {
  // A host name that does not resolve (a mistyped base URL) will not resolve two seconds later;
  // a resolver that could not answer now (EAI_AGAIN) may.
  if (error instanceof APIConnectionError)
    return !PERMANENT_CONNECTION_CODES.has(systemCode(error));
  const answer = answerOf(error);
  if (answer === undefined) return false;
  const should = answer.headers?.get("x-should-retry");
  if (should === "true") return true;
  if (should === "false") return false;
  const { status } = answer;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The server's answer, when there was one (narrowing by `instanceof` leaves the SDK's generics untyped). */
function answerOf(error: unknown): { status: number; headers: Headers | undefined } | undefined {
  if (!(error instanceof APIError) || error instanceof APIConnectionError) return undefined;
  const { status, headers } = error as APIError;
  return { status: status ?? 0, headers };
}

function retryAfterMs(headers: Headers | undefined): number | undefined {
  const inMs = numberIn(headers?.get("retry-after-ms"));
  const inSeconds = numberIn(headers?.get("retry-after"));
  const asked = inMs ?? (inSeconds === undefined ? undefined : inSeconds * 1000);
  return asked !== undefined && asked >= 0 && asked <= LONGEST_RETRY_AFTER_MS
    ? Math.round(asked)
    : undefined;
}

/** A header's number; a blank or an HTTP date is none. */
function numberIn(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined || value.trim() === "") return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

/** Connection failures a retry cannot fix. */
const PERMANENT_CONNECTION_CODES: ReadonlySet<string | undefined> = new Set(["ENOTFOUND"]);

const CONNECTION_REASONS: ReadonlyMap<string, string> = new Map([
  ["ECONNREFUSED", "connection refused"],
  ["ECONNRESET", "connection reset"],
  ["ENOTFOUND", "host not found"],
  ["ETIMEDOUT", "connection timed out"],
  ["EPIPE", "connection closed"],
]);

function retryReason(error: unknown, timeoutMs: number): string {
  // Timeout first: it is a subclass of the connection error.
  if (error instanceof APIConnectionTimeoutError) {
    return `no reply within ${String(timeoutMs / 1000)} s`;
  }
  if (error instanceof APIConnectionError) {
    const code = systemCode(error);
    return code === undefined ? "connection failed" : (CONNECTION_REASONS.get(code) ?? code);
  }
  const status = answerOf(error)?.status ?? 0;
  if (status === 429) return "rate limited (HTTP 429)";
  if (status >= 500) return `server error (HTTP ${String(status)})`;
  return `HTTP ${String(status)}`;
}

/** ECONNRESET and the like, from fetch's cause chain. */
function systemCode(error: Error): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth += 1) {
    const code = "code" in current ? current.code : undefined;
    if (typeof code === "string" && /^E[A-Z]+$/u.test(code)) return code;
    current = current.cause;
  }
  return undefined;
}

/** The real wait: a timer that Ctrl-C clears. */
export function abortableWait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(new RunCancelledError());
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new RunCancelledError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
