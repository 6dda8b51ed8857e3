/**
 * `/undo`'s hands in the workspace: the same boundary and protected paths as the file tools'
 * writes (`safeWritablePath`), and one rule more: the recorded file must resolve to itself. A
 * name that now leads elsewhere through a link (planted since the call) is refused, never
 * followed, so an undo can only put bytes back where the call wrote them, inside the workspace.
 */
import { lstat, rm, rmdir } from "node:fs/promises";
import { join } from "node:path";
import {
  WorkspaceFileError,
  type CurrentFile,
  type WorkspaceRestorer,
} from "../../core/ports/filesystem.js";
import { writeFileAtomically } from "./atomic-write.js";
import { openExisting, readHashed } from "./before-image.js";
import { toWorkspaceError } from "./fs-errors.js";
import { realpathNative, safeWritablePath, type HostFilesSource } from "./safe-path.js";
import type { ProtectedFiles } from "./node-filesystem.js";

export class NodeWorkspaceRestorer implements WorkspaceRestorer {
  readonly #root: string;
  readonly #harnessFiles: readonly string[];
  readonly #hostFiles: HostFilesSource;

  constructor(root: string, protectedFiles: ProtectedFiles = {}) {
    this.#root = root;
    this.#harnessFiles = protectedFiles.harnessFiles ?? [];
    this.#hostFiles = protectedFiles.hostFiles ?? (() => []);
  }

  async current(file: string): Promise<CurrentFile> {
    try {
      const target = await this.#resolve(file);
      const handle = await openExisting(target, file);
      if (handle === undefined) return { kind: "absent" };
      try {
        return { kind: "file", sha256: (await readHashed(handle, 0)).sha256 };
      } finally {
        await handle.close();
      }
    } catch (error) {
      if (error instanceof WorkspaceFileError) return { kind: "refused", reason: error.message };
      throw error;
    }
  }

  async restore(file: string, bytes: Uint8Array, expectedSha256: string): Promise<void> {
    const target = await this.#holding(file, expectedSha256);
    await writeFileAtomically(target, bytes, file);
  }

  async remove(file: string, expectedSha256: string): Promise<void> {
    const target = await this.#holding(file, expectedSha256);
    try {
      await rm(target);
    } catch (error) {
      throw toWorkspaceError(error, file);
    }
  }

  async removeEmptyFolder(folder: string): Promise<boolean> {
    let target: string;
    try {
      target = await this.#resolve(folder);
    } catch {
      return false;
    }
    // A folder, not a link to one; rmdir refuses one that holds anything.
    if ((await lstat(target).catch(() => undefined))?.isDirectory() !== true) return false;
    try {
      await rmdir(target);
      return true;
    } catch {
      return false;
    }
  }

  /** The file's real path, checked again right before the change: still what the call wrote. */
  async #holding(file: string, expectedSha256: string): Promise<string> {
    const target = await this.#resolve(file);
    const handle = await openExisting(target, file);
    if (handle === undefined) throw new WorkspaceFileError("file_not_found", `${file} is gone`);
    try {
      if ((await readHashed(handle, 0)).sha256 !== expectedSha256) {
        throw new WorkspaceFileError("path_escape", `${file} changed while it was being undone`);
      }
    } finally {
      await handle.close();
    }
    return target;
  }

  /** The boundary the tools' writes go through; a link anywhere on the way is refused. */
  async #resolve(file: string): Promise<string> {
    const target = await safeWritablePath(this.#root, file, this.#harnessFiles, this.#hostFiles());
    const named = join(await realpathNative(this.#root), ...file.split("/"));
    if (target !== named) {
      throw new WorkspaceFileError(
        "path_escape",
        "it now leads to another file through a link, which an undo does not follow",
      );
    }
    return target;
  }
}
