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

  /**
   * `lead` then `text` as UTF-8: a view of exactly their bytes, never written again. The two are
   * written one after the other, not joined first (a resume encodes a whole history at once).
   */
  encode(text: string, lead = ""): Buffer {
    // A UTF-16 code unit is at most 3 bytes of UTF-8: when that much fits (and is under half a
    // slab, which would get a buffer of its own), nothing is measured.
    const worst = (lead.length + text.length) * 3;
    const fits = worst < this.#slabBytes / 2 && worst <= this.#slab.length - this.#used;
    const length = fits ? 0 : Buffer.byteLength(lead) + Buffer.byteLength(text);
    if (length >= this.#slabBytes / 2) {
      const own = Buffer.allocUnsafeSlow(length);
      own.write(text, own.write(lead, 0, "utf8"), "utf8");
      return own;
    }
    if (!fits && length > this.#slab.length - this.#used) {
      // Never filled past what is written: every byte handed out is the text's own.
      this.#slab = Buffer.allocUnsafeSlow(this.#slabBytes);
      this.#used = 0;
    }
    const start = this.#used;
    this.#used += this.#slab.write(lead, start, "utf8");
    this.#used += this.#slab.write(text, this.#used, "utf8");
    return this.#slab.subarray(start, this.#used);
  }
}
