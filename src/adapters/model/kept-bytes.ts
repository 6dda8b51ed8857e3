/**
 * UTF-8 bytes kept for as long as a history, packed into slabs of their own. `Buffer.from` puts a
 * short string into Node's shared 8 KiB pool, beside the passing buffers of a turn (a reply's
 * bytes, a journal line), and a kept slice keeps its whole slab alive: a run's 1.2 KB messages
 * held several times their size. Here a slab holds only kept bytes. A string of half a slab or
 * more gets a buffer of its own.
 */
export class KeptBytes {
  readonly #slabBytes: number;
  #slab: Buffer = Buffer.alloc(0);
  #used = 0;

  constructor(slabBytes = 64 * 1024) {
    this.#slabBytes = slabBytes;
  }

  /** `text` as UTF-8: a view of exactly its bytes, never written again. */
  encode(text: string): Buffer {
    const length = Buffer.byteLength(text);
    if (length >= this.#slabBytes / 2) {
      const own = Buffer.allocUnsafeSlow(length);
      own.write(text, 0, length, "utf8");
      return own;
    }
    if (length > this.#slab.length - this.#used) {
      // Never filled past what is written: every byte handed out is the text's own.
      this.#slab = Buffer.allocUnsafeSlow(this.#slabBytes);
      this.#used = 0;
    }
    const start = this.#used;
    this.#used += this.#slab.write(text, start, length, "utf8");
    return this.#slab.subarray(start, this.#used);
  }
}
