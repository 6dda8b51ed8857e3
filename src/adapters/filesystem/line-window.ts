/**
 * Reads a window of lines from an open file in fixed-size chunks, so memory stays bounded by the
 * window (never by the file) while the whole file is still scanned for NUL bytes and line count.
 */
import type { FileHandle } from "node:fs/promises";

const CHUNK_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

export interface LineWindowRequest {
  /** 1-based first line. */
  readonly firstLine: number;
  /** 1-based last line, inclusive; `Infinity` for the rest of the file. */
  readonly lastLine: number;
  /** More window bytes than this stops the scan with `tooLarge`. */
  readonly maxBytes: number;
  /**
   * The file's size when it was opened: the scan reads no further, so a file that a process
   * keeps appending to (`yes > log &`) cannot keep the read going while it grows.
   */
  readonly fileBytes: number;
}

export type LineWindowScan =
  | { readonly kind: "binary" }
  | { readonly kind: "tooLarge" }
  | { readonly kind: "text"; readonly bytes: Buffer; readonly totalLines: number };

export async function scanLineWindow(
  handle: FileHandle,
  request: LineWindowRequest,
): Promise<LineWindowScan> {
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let line = 1;
  let sawAnyByte = false;
  let endsWithNewline = false;
  for (let position = 0; position < request.fileBytes;) {
    // A fresh buffer per read: the window keeps slices of it.
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, request.fileBytes - position));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const data = chunk.subarray(0, bytesRead);
    if (data.includes(0)) return { kind: "binary" };
    sawAnyByte = true;
    endsWithNewline = data[bytesRead - 1] === NEWLINE;
    let start = 0;
    while (start < bytesRead) {
      const newline = data.indexOf(NEWLINE, start);
      const end = newline === -1 ? bytesRead : newline + 1;
      if (line >= request.firstLine && line <= request.lastLine) {
        keptBytes += end - start;
        if (keptBytes > request.maxBytes) return { kind: "tooLarge" };
        kept.push(data.subarray(start, end));
      }
      if (newline === -1) break;
      line += 1;
      start = end;
    }
  }
  // `line` counts the line after the last newline; it only exists if it has bytes.
  const totalLines = !sawAnyByte ? 0 : endsWithNewline ? line - 1 : line;
  return { kind: "text", bytes: Buffer.concat(kept), totalLines };
}
