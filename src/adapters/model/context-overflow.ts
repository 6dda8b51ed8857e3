/**
 * Whether a provider refused a request because it is longer than the model's context window.
 * OpenAI says so with a code; local servers only in words, which differ:
 * - OpenAI: `code: "context_length_exceeded"` ("This model's maximum context length is …")
 * - vLLM: "This model's maximum context length is 4096 tokens. However, you requested …"
 * - llama.cpp: "the request exceeds the available context size, try increasing it"
 *   (`type: "exceed_context_size_error"`)
 * - Ollama: "the input length exceeds the context length", or "prompt too long"
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
  const body: unknown = error.error;
  const fields = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  if ([error.code, error.type, fields.code, fields.type].some((value) => isCode(value))) {
    return true;
  }
  const text = [error.message, fields.message].filter((part) => typeof part === "string");
  return text.some((part) => WORDINGS.some((wording) => wording.test(part)));
}

function isCode(value: unknown): boolean {
  return typeof value === "string" && CODES.has(value);
}
