/**
 * What the model reads of an MCP tool's result: its text, images and resources summarised (their
 * bytes are not text the model can use), capped head and tail like a command's output, and
 * redacted of the server's secrets.
 */
import { redact } from "./secrets.js";

/** About what a command's output keeps: its head and tail, 8,000 characters each. */
export const RESULT_HEAD = 8_000;
export const RESULT_TAIL = 8_000;

interface ContentItem {
  readonly type: string;
  readonly text?: unknown;
  readonly data?: unknown;
  readonly mimeType?: unknown;
  readonly uri?: unknown;
  readonly name?: unknown;
  readonly resource?: unknown;
}

export interface ToolCallResult {
  readonly content?: readonly ContentItem[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
}

export function resultText(result: ToolCallResult, secrets: readonly string[]): string {
  const parts = (result.content ?? []).map(describeItem);
  if (parts.length === 0 && result.structuredContent !== undefined) {
    parts.push(JSON.stringify(result.structuredContent));
  }
  const text = parts.length === 0 ? "(no output)" : parts.join("\n");
  return capped(redact(text, secrets));
}

function describeItem(item: ContentItem): string {
  switch (item.type) {
    case "text":
      return typeof item.text === "string" ? item.text : "";
    case "image":
    case "audio":
      return `[${item.type} ${String(item.mimeType)}, ${base64Bytes(item.data)} bytes, not shown]`;
    case "resource_link":
      return `[resource link ${String(item.uri)}${typeof item.name === "string" ? ` (${item.name})` : ""}]`;
    case "resource": {
      const resource = (item.resource ?? {}) as ContentItem;
      const head = `[resource ${String(resource.uri)}${typeof resource.mimeType === "string" ? `, ${resource.mimeType}` : ""}`;
      return typeof resource.text === "string"
        ? `${head}]\n${resource.text}`
        : `${head}, ${base64Bytes((resource as { blob?: unknown }).blob)} bytes, not shown]`;
    }
    default:
      return `[${item.type} content, not shown]`;
  }
}

function base64Bytes(data: unknown): number {
  if (typeof data !== "string") return 0;
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** The head and the tail, and between them how much was left out. */
export function capped(text: string): string {
  if (text.length <= RESULT_HEAD + RESULT_TAIL) return text;
  const left = text.slice(RESULT_HEAD, text.length - RESULT_TAIL);
  const lines = left.split("\n").length - 1;
  return `${text.slice(0, RESULT_HEAD)}\n[output truncated: ${left.length} characters (${lines} ${lines === 1 ? "line" : "lines"}) left out]\n${text.slice(text.length - RESULT_TAIL)}`;
}
