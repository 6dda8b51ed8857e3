/**
 * How big the model's context window is, and how full a history makes it. Providers report the
 * prompt's size in `usage`; between replies (and when a provider reports nothing) the size is
 * estimated at about four characters a token, the usual rule of thumb for English and code.
 */
import type { Message } from "../ports/messages.js";
import type { ModelToolSpec } from "../ports/model.js";

/** For a model the table below does not know: small enough for most local servers. */
export const DEFAULT_CONTEXT_WINDOW = 32_768;

/** Compaction starts before a request would pass this share of the window. */
export const COMPACT_AT = 0.8;

const CHARS_PER_TOKEN = 4;

/** Well-known model families, by name prefix (first match wins, so longer prefixes come first). */
const KNOWN_WINDOWS: readonly (readonly [prefix: string, tokens: number])[] = [
  ["gpt-4.1", 1_047_576],
  ["gpt-4o", 128_000],
  ["gpt-4-turbo", 128_000],
  ["gpt-5", 400_000],
  ["o4-mini", 200_000],
  ["o3", 200_000],
  ["o1", 200_000],
  ["llama3.1", 131_072],
  ["llama3.2", 131_072],
  ["llama3.3", 131_072],
  ["qwen2.5-coder", 32_768],
  ["qwen3", 40_960],
];

/** The window of a model by its name (a provider prefix such as `openai/` is ignored). */
export function defaultContextWindow(model: string): number {
  return knownContextWindow(model) ?? DEFAULT_CONTEXT_WINDOW;
}

/** The window the table above knows for a model's name; undefined for a name it does not know. */
export function knownContextWindow(model: string): number | undefined {
  const name = model.toLowerCase().replace(/^.*\//, "");
  return KNOWN_WINDOWS.find(([prefix]) => name.startsWith(prefix))?.[1];
}

export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** One message as the provider will see it: its text, its calls, and a few tokens of framing. */
export function estimateMessageTokens(message: Message): number {
  const framing = 4;
  switch (message.role) {
    case "system":
    case "user":
    case "tool":
      return framing + estimateTextTokens(message.content);
    case "assistant": {
      let tokens = framing + estimateTextTokens(message.content ?? "");
      // Lengths added, not the texts joined: a resume estimates thousands of calls at once.
      for (const call of message.toolCalls) {
        const chars = call.id.length + call.name.length + call.arguments.length;
        tokens += Math.ceil(chars / CHARS_PER_TOKEN) + 4;
      }
      return tokens;
    }
  }
}

export function estimateMessagesTokens(messages: readonly Message[]): number {
  return messages.reduce((sum, message) => sum + estimateMessageTokens(message), 0);
}

export function estimateToolsTokens(tools: readonly ModelToolSpec[]): number {
  return estimateTextTokens(JSON.stringify(tools));
}

/** Whole percent of the window, never above 999 (a history far past it is shown as such). */
export function percentOf(tokens: number, window: number): number {
  return Math.min(999, Math.round((tokens / window) * 100));
}
