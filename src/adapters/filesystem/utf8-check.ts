/**
 * Whether a file holds bytes that are not valid UTF-8 (issue 41). `read_file` shows such bytes as
 * U+FFFD, so its text written back would destroy them: `write_file` refuses to replace such a
 * file unless `read_file` told the model so first (node-filesystem.ts keeps who was told).
 */
import type { FileHandle } from "node:fs/promises";

const CHUNK_BYTES = 64 * 1024;

/** Reads the whole file once, in chunks; a sequence cut by a chunk's end is decoded whole. */
export async function holdsInvalidUtf8(handle: FileHandle): Promise<boolean> {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  const buffer = Buffer.alloc(CHUNK_BYTES);
  let position = 0;
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) {
        decoder.decode();
        return false;
      }
      decoder.decode(buffer.subarray(0, bytesRead), { stream: true });
      position += bytesRead;
    }
  } catch (error) {
    // The fatal decoder's refusal of an invalid sequence.
    if (error instanceof TypeError) return true;
    throw error;
  }
}
