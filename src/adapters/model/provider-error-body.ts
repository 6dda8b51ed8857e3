/**
 * An error a provider sends inside a reply it began as a success: an error object in a stream's
 * `data:` (OpenAI-compatible servers send `{"error":{…}}`, older vLLM the bare object with
 * `"object":"error"`), an `event: error`, or a 200 body read whole. A context-length refusal there
 * is the same ContextWindowExceededError as an HTTP 400 one, so the runner compacts and retries
 * once either way.
 */
import { ContextWindowExceededError } from "../../core/context/context-errors.js";
import { ModelProviderError } from "../../core/common/agent-errors.js";
import { oneLine } from "../../core/common/one-line.js";
import { describesContextOverflow } from "./context-overflow.js";

/** The error object a body carries (its `error`, or itself when it says it is one), if any. */
export function errorObjectIn(body: Record<string, unknown>): unknown {
  if (body.error !== undefined && body.error !== null) return body.error;
  return body.object === "error" ? body : undefined;
}

/** The failure for `error` (an error object or text); undefined when it says nothing at all. */
export function providerErrorFor(error: unknown): ModelProviderError | undefined {
  const message = errorMessageIn(error);
  if (message === undefined) return undefined;
  const text = oneLine(`The model provider returned an error: ${message}`);
  return describesContextOverflow(error)
    ? new ContextWindowExceededError(text)
    : new ModelProviderError(text);
}

function errorMessageIn(error: unknown): string | undefined {
  if (typeof error === "string") return error.trim() === "" ? undefined : error;
  if (typeof error !== "object" || error === null) return undefined;
  const { message, code, type } = error as Record<string, unknown>;
  if (typeof message === "string" && message.trim() !== "") return message;
  // No words, only a code (`{"code":"context_length_exceeded"}`): the code is the message.
  for (const value of [code, type]) if (typeof value === "string" && value !== "") return value;
  return undefined;
}
