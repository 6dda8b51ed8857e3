import { copyPrefix } from "./copy-prefix.js";

/**
 * The last `keep` bytes of a stream of chunks, in one buffer allocated once with room for `keep`
 * bytes and one chunk of `room` more. A chunk that fits goes in whole (`copyPrefix`), and when it
 * would run past the end, what is still kept slides to the front with `copyWithin`: neither
 * allocates. Copying only part of a chunk (a `subarray`, or `Buffer#copy` with offsets, which
 * builds a view inside on Node 20) makes an object per chunk, and one per 64 KiB read of a
 * gigabyte was enough garbage to grow V8's young generation by 16 MiB. Only a chunk
 * larger than the whole buffer pays for a view.
 */
export class LastBytes {
  readonly #buffer: Buffer;
  readonly #keep: number;
  /** What is kept is `#buffer[#start, #end)`, never more than `#keep` bytes. */
  #start = 0;
  #end = 0;
  #dropped = false;

  constructor(keep: number, room: number) {
    this.#keep = keep;
    this.#buffer = Buffer.allocUnsafe(keep + room);
  }

  get length(): number {
    return this.#end - this.#start;
  }

  /** True once a byte pushed since the last `clear` has been let go. */
  get dropped(): boolean {
    return this.#dropped;
  }

  /** Keeps `bytes[0, size)`, or all of `bytes`. */
  push(bytes: Uint8Array, size = bytes.length): void {
    const buffer = this.#buffer;
    if (size > buffer.length) {
      buffer.set(bytes.subarray(size - this.#keep, size), 0);
      this.#start = 0;
      this.#end = this.#keep;
      this.#dropped = true;
      return;
    }
    if (this.#end + size > buffer.length) {
      // Only the old bytes the chunk leaves a place for move; the ones before them are let go.
      const from = Math.min(this.#end, Math.max(this.#start, this.#end + size - this.#keep));
      if (from > this.#start) this.#dropped = true;
      buffer.copyWithin(0, from, this.#end);
      this.#end -= from;
      this.#start = 0;
    }
    copyPrefix(buffer, this.#end, bytes, size);
    this.#end += size;
    if (this.#end - this.#start > this.#keep) {
      this.#start = this.#end - this.#keep;
      this.#dropped = true;
    }
  }

  /** The kept bytes, oldest first: a view, valid until the next `push` or `clear`. */
  bytes(): Buffer {
    return this.#buffer.subarray(this.#start, this.#end);
  }

  clear(): void {
    this.#start = 0;
    this.#end = 0;
    this.#dropped = false;
  }
}
