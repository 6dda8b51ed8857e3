/**
 * A run's before-images: the bytes files held before the file tools wrote them, which `/undo`
 * puts back. They are kept beside the journal, not in it (the journal is read back whole, and
 * stays small), in `<run id>.images`: one append-only file, opened as every harness file is (no
 * link followed, a regular file with one name, owner-only), each image flushed to disk before its
 * `file_before` record is written. The record names the image's span and SHA-256, so a span that
 * does not hold those bytes any more is refused, never restored.
 */
import { createHash } from "node:crypto";
import { closeSync, fstatSync } from "node:fs";
import type { KeptImage } from "../../core/journal/journal-records.js";
import { appendDurably, openHarnessOutput, useHarnessInput } from "../filesystem/index.js";

/** A run keeps at most this much of before-images; past it, a write says it cannot be undone. */
export const MAX_IMAGES_BYTES = 64 * 1024 * 1024;

/** `<runs>/<run id>.jsonl` → `<runs>/<run id>.images`. */
export function imagesPath(journalPath: string): string {
  return journalPath.replace(/\.jsonl$/u, ".images");
}

export class ImageFile {
  readonly path: string;
  #fd: number | undefined;
  #size = 0;

  constructor(path: string) {
    this.path = path;
  }

  /** Appends `bytes` and flushes them; opened at the first image, so a run without writes has none. */
  async keep(bytes: Uint8Array): Promise<KeptImage | { readonly notKept: string }> {
    if (this.#fd === undefined) {
      this.#fd = openHarnessOutput(this.path, { truncate: false }).fd;
      this.#size = fstatSync(this.#fd).size;
    }
    if (this.#size + bytes.byteLength > MAX_IMAGES_BYTES) {
      return {
        notKept: `the run's before-images reached ${String(MAX_IMAGES_BYTES / 1024 / 1024)} MiB`,
      };
    }
    const offset = this.#size;
    await appendDurably(this.#fd, bytes);
    this.#size += bytes.byteLength;
    return { offset, length: bytes.byteLength };
  }

  close(): void {
    if (this.#fd === undefined) return;
    closeSync(this.#fd);
    this.#fd = undefined;
  }
}

/**
 * The bytes of one kept image, read with the harness's safe open: `undefined` when the span is
 * not there or does not hash to `sha256` (the file was cut or changed), never other bytes.
 */
export function readKeptImage(
  path: string,
  image: KeptImage,
  sha256: string,
): Uint8Array | undefined {
  return useHarnessInput(path, MAX_IMAGES_BYTES, (file) => {
    if (image.offset + image.length > file.size) return undefined;
    const bytes = file.read(image.offset, image.length);
    return createHash("sha256").update(bytes).digest("hex") === sha256 ? bytes : undefined;
  });
}
