/** What a tool call gives back to the model. Frozen: nothing downstream may rewrite a result. */
export interface ToolResult {
  readonly content: string;
  readonly isError: boolean;
  readonly errorCode?: string;
}

export function toolSuccess(content: string): ToolResult {
  return Object.freeze({ content, isError: false });
}

/** Error results read `Error [code]: message` so the model can tell what failed and how to fix it. */
export function toolError(code: string, message: string): ToolResult {
  return Object.freeze({ content: `Error [${code}]: ${message}`, isError: true, errorCode: code });
}

/** Handlers are code we do not fully trust (future plugins): police what they return. */
export function isToolResult(value: unknown): value is ToolResult {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Record<string, unknown>;
  if (typeof candidate.content !== "string" || typeof candidate.isError !== "boolean") return false;
  if (candidate.errorCode !== undefined && typeof candidate.errorCode !== "string") return false;
  return true;
}
