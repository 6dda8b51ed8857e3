import type { FileHandle } from "node:fs/promises";

const CHUNK_BYTES = 64 * 1024;

/**
 * Reads a whole file only if it fits in `maxBytes`: reading stops one chunk past the limit, so a
 * file that grew since `stat` cannot blow memory. `undefined` means it did not fit.
 */
export async function readAtMost(
  handle: FileHandle,
  maxBytes: number,
): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, null);
    if (bytesRead === 0) return Buffer.concat(chunks, total);
    total += bytesRead;
    if (total > maxBytes) return undefined;
    chunks.push(chunk.subarray(0, bytesRead));
  }
}
