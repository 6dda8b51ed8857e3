/**
 * Whether a provider refused a request because it is longer than the model's context window.
 * OpenAI says so with a code; local servers only in words, which differ:
 * - OpenAI: `code: "context_length_exceeded"` ("This model's maximum context length is …")
 * - vLLM: "This model's maximum context length is 4096 tokens. However, you requested …"
 * - llama.cpp: "the request exceeds the available context size, try increasing it"
 *   (`type: "exceed_context_size_error"`)
 * - Ollama: "the input length exceeds the context length", or "prompt too long"
 * The same words arrive either as an HTTP error (an `APIError`) or inside a reply that began as a
 * success (an error object in a stream or a 200 body): both are judged here, the same way.
 */
import { APIError } from "openai";

const CODES = new Set(["context_length_exceeded", "exceed_context_size_error"]);

const WORDINGS = [
  /maximum context length/i,
  /exceeds? the (available )?context (size|length|window)/i,
  /context (length|window) (exceeded|is exceeded)/i,
  /prompt (is )?too long/i,
];

export function isContextOverflow(error: unknown): boolean {
  if (!(error instanceof APIError)) return false;
  return (
    describesContextOverflow(error.error) ||
    describesContextOverflow({ code: error.code, type: error.type, message: error.message })
  );
}

/** A provider's error object (`{code, type, message}`) or bare error text. */
export function describesContextOverflow(error: unknown): boolean {
  if (typeof error === "string") return matchesWording(error);
  if (typeof error !== "object" || error === null) return false;
  const fields = error as Record<string, unknown>;
  return (
    isCode(fields.code) ||
    isCode(fields.type) ||
    (typeof fields.message === "string" && matchesWording(fields.message))
  );
}

function matchesWording(text: string): boolean {
  return WORDINGS.some((wording) => wording.test(text));
}

function isCode(value: unknown): boolean {
  return typeof value === "string" && CODES.has(value);
}
