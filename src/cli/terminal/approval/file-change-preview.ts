import { WorkspaceFileError, type WorkspaceFileSystem } from "../../../core/ports/filesystem.js";
import type { PermissionRequest } from "../../../core/policy/permission-request.js";

/** What a write or an edit would do to a file, for the approval prompt. */
export interface FileChange {
  readonly path: string;
  /** The file as it is now; `undefined` when there is none yet. */
  readonly before: string | undefined;
  readonly after: string;
}

/**
 * The change a `write_file` or `edit_file` call would make, read through the same workspace file
 * system the tools use. `undefined` when it cannot be known (an edit that would fail, a file that
 * cannot be read): the prompt then shows the arguments instead.
 */
export async function proposedFileChange(
  request: PermissionRequest,
  fileSystem: WorkspaceFileSystem,
): Promise<FileChange | undefined> {
  const args: unknown = request.call.arguments;
  if (typeof args !== "object" || args === null) return undefined;
  const record = args as Record<string, unknown>;
  const { path } = record;
  if (typeof path !== "string") return undefined;
  if (request.toolName === "write_file" && typeof record.content === "string") {
    const before = await currentText(fileSystem, path);
    if (before === null) return undefined;
    return { path, before, after: record.content };
  }
  if (request.toolName === "edit_file") {
    const { old_string: oldString, new_string: newString } = record;
    if (typeof oldString !== "string" || typeof newString !== "string") return undefined;
    // The tool's own read and replacement (line endings, BOM, strict UTF-8): the diff shown is the
    // change that would be written, never a look-alike computed here.
    const preview = await fileSystem.previewEdit?.(path, {
      oldString,
      newString,
      replaceAll: record.replace_all === true,
    });
    return preview === undefined ? undefined : { path, ...preview };
  }
  return undefined;
}

/** The file's text; `undefined` when it does not exist; `null` when it cannot be read. */
async function currentText(
  fileSystem: WorkspaceFileSystem,
  path: string,
): Promise<string | undefined | null> {
  try {
    return (await fileSystem.readFile(path)).text;
  } catch (error) {
    if (error instanceof WorkspaceFileError && error.code === "file_not_found") return undefined;
    return null;
  }
}

/** The `previewChange` of the terminal approval, reading through `fileSystem`. */
export function previewWith(
  fileSystem: WorkspaceFileSystem,
): (request: PermissionRequest) => Promise<FileChange | undefined> {
  return (request) => proposedFileChange(request, fileSystem);
}
