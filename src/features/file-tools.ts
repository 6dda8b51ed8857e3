import type { WorkspaceFileSystem } from "../core/ports/filesystem.js";
import type { ToolDefinition } from "../core/tools/tool-definition.js";
import { createEditFileTool } from "./edit-file-tool.js";
import { createGlobTool } from "./glob-tool.js";
import { createReadFileTool } from "./read-file-tool.js";
import { createWriteFileTool } from "./write-file-tool.js";

/** The four file tools of profile P02, in the order the model sees them. */
export function createFileTools({
  fileSystem,
  withheldFromGlob,
}: {
  fileSystem: WorkspaceFileSystem;
  /** Globs of paths glob never lists (the person's deny and ask rules); absent: none. */
  withheldFromGlob?: readonly string[] | undefined;
}): ToolDefinition[] {
  return [
    createReadFileTool({ fileSystem }),
    createWriteFileTool({ fileSystem }),
    createEditFileTool({ fileSystem }),
    createGlobTool({ fileSystem, withheld: withheldFromGlob }),
  ];
}
