/**
 * Whether a file holds bytes that are not valid UTF-8 (issue 41). `read_file` shows such bytes as
 * U+FFFD, so its text written back would destroy them: `write_file` refuses to replace such a
 * file unless `read_file` told the model so first (node-filesystem.ts keeps who was told).
 */
import type { FileHandle } from "node:fs/promises";

const CHUNK_BYTES = 64 * 1024;

/**
 * How far the check reads. Past it, a file is far larger than anything a model could have read
 * and written back (a read shows 256 KiB, a call's arguments are capped), and reading on would let
 * a sparse file of a terabyte hold a write for hours.
 */
export const UTF8_CHECK_BYTES = 16 * 1024 * 1024;

/**
 * Reads the file once, in chunks, up to `maxBytes`; a sequence cut by a chunk's end is decoded
 * whole, and one cut by `maxBytes` is not judged.
 */
export async function holdsInvalidUtf8(
  handle: FileHandle,
  maxBytes: number = UTF8_CHECK_BYTES,
): Promise<boolean> {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  const buffer = Buffer.alloc(CHUNK_BYTES);
  let position = 0;
  try {
    for (;;) {
      const wanted = Math.min(buffer.length, maxBytes - position);
      if (wanted <= 0) return false;
      const { bytesRead } = await handle.read(buffer, 0, wanted, position);
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
