import { WorkspaceFileError } from "../core/ports/filesystem.js";
import { toolError, type ToolResult } from "../core/tools/tool-result.js";

/**
 * Runs a file operation and turns its domain errors into `Error [code]: message` results. Anything
 * else is rethrown so the registry reports it as `tool_execution_error`.
 */
export async function withFileErrors(operation: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof WorkspaceFileError) return toolError(error.code, error.message);
    throw error;
  }
}
