/**
 * What a file held before a write replaced it, for `/undo`: its SHA-256 and size always, its bytes
 * up to BEFORE_IMAGE_LIMIT_BYTES. Read as the tools read (no link followed, a regular file, the
 * descriptor checked to be the file at that path).
 */
import { createHash } from "node:crypto";
import type { FileHandle } from "node:fs/promises";
import type { BeforeImage } from "../../core/ports/filesystem.js";
import { WorkspaceFileError } from "../../core/ports/filesystem.js";
import { openCheckedForReading } from "./open-for-reading.js";

/**
 * The bytes an undo keeps of one file: what `edit_file` can edit and the tools write, so every
 * edit can be undone; a larger file `write_file` replaces is said to be beyond undo.
 */
export const BEFORE_IMAGE_LIMIT_BYTES = 4 * 1024 * 1024;

const CHUNK_BYTES = 64 * 1024;

export function sha256Of(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** `undefined` when there is no file at `target`: the write creates it. */
export async function readBeforeImage(
  target: string,
  path: string,
): Promise<BeforeImage | undefined> {
  const handle = await openExisting(target, path);
  if (handle === undefined) return undefined;
  try {
    return await readHashed(handle, BEFORE_IMAGE_LIMIT_BYTES);
  } finally {
    await handle.close();
  }
}

/** The file's SHA-256 and size, and its bytes when they are at most `keepUpTo`. */
export async function readHashed(handle: FileHandle, keepUpTo: number): Promise<BeforeImage> {
  const hash = createHash("sha256");
  const kept: Buffer[] = [];
  let size = 0;
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  for (;;) {
    const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, null);
    if (bytesRead === 0) break;
    const part = chunk.subarray(0, bytesRead);
    hash.update(part);
    size += bytesRead;
    if (size <= keepUpTo) kept.push(Buffer.from(part));
  }
  const sha256 = hash.digest("hex");
  return size <= keepUpTo ? { sha256, size, bytes: Buffer.concat(kept, size) } : { sha256, size };
}

/**
 * The file at `target` opened for reading, or `undefined` when there is none. `target` is a real
 * path the boundary returned, so a link at it now was swapped in after the check.
 */
export async function openExisting(target: string, path: string): Promise<FileHandle | undefined> {
  try {
    return await openCheckedForReading(target, path, { oneName: false });
  } catch (error) {
    if (error instanceof WorkspaceFileError && error.code === "file_not_found") return undefined;
    throw error;
  }
}
