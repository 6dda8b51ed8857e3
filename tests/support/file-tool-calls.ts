/**
 * The file tool tests' shared steps: the four file tools over the real file system, one call made
 * the way the loop makes it (prepare from raw JSON, then invoke), and the results they compare whole.
 */
import { NodeWorkspaceFileSystem } from "../../src/adapters/filesystem/node-filesystem.js";
import type { ToolResult } from "../../src/core/tools/tool-result.js";
import { ToolRegistry } from "../../src/core/tools/tool-registry.js";
import { createFileTools } from "../../src/features/file-tools.js";

export function fileToolRegistry(workspace: string): ToolRegistry {
  return new ToolRegistry(createFileTools({ fileSystem: new NodeWorkspaceFileSystem(workspace) }));
}

/** Runs one call the way the loop does: prepare from raw JSON, then invoke. */
export async function callTool(
  registry: ToolRegistry,
  name: string,
  args: unknown,
): Promise<ToolResult> {
  const snapshot = registry.snapshot();
  const prepared = snapshot.prepare({ id: "call_1", name, arguments: JSON.stringify(args) });
  if (!prepared.ok) return prepared.result;
  return snapshot.invoke(prepared.call);
}

export const okResult = (content: string): ToolResult => ({ content, isError: false });

export const errorResult = (code: string, message: string): ToolResult => ({
  content: `Error [${code}]: ${message}`,
  isError: true,
  errorCode: code,
});
