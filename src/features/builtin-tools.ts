import type { WorkspaceFileSystem } from "../core/ports/filesystem.js";
import type { ToolDefinition } from "../core/tools/tool-definition.js";
import { createFileTools } from "./file-tools.js";
import { createShellTool, type ShellToolOptions } from "./shell-tool.js";

export interface BuiltinToolOptions {
  readonly shell: ShellToolOptions;
  /** Given only to profiles with the `files` capability (chapter 2 on). */
  readonly fileSystem?: WorkspaceFileSystem;
}

/** The builtin tools in the order the model sees them: `shell`, then the four file tools. */
export function createBuiltinTools(options: BuiltinToolOptions): ToolDefinition[] {
  const shell: ToolDefinition = createShellTool(options.shell);
  return options.fileSystem === undefined
    ? [shell]
    : [shell, ...createFileTools({ fileSystem: options.fileSystem })];
}
