/**
 * A hard byte cap that never splits a UTF-8 character (the status pipe's buffer), and the UTF-8
 * boundary helpers the captured output shares.
 */
/** Keeps the first `limit` bytes, cut on a character boundary, and drops everything after. */
export class BoundedOutput {
  readonly #limit: number;
  readonly #chunks: Buffer[] = [];
  #kept = 0;
  #truncated = false;

  constructor(limit: number) {
    this.#limit = limit;
  }

  get full(): boolean {
    return this.#truncated;
  }

  append(bytes: Buffer): void {
    if (this.#truncated || bytes.length === 0) return;
    const room = this.#limit - this.#kept;
    if (bytes.length <= room) {
      this.#chunks.push(Buffer.from(bytes));
      this.#kept += bytes.length;
      return;
    }
    const cut = utf8BoundaryAtOrBefore(bytes, room);
    this.#chunks.push(Buffer.from(bytes.subarray(0, cut)));
    this.#kept += cut;
    this.#truncated = true;
  }

  result(): { output: string; truncated: boolean } {
    return { output: Buffer.concat(this.#chunks).toString("utf8"), truncated: this.#truncated };
  }
}

/**
 * Length of the longest prefix (of `bytes[0, end)`) that does not end inside a (valid-looking)
 * UTF-8 sequence.
 */
export function completeUtf8Length(bytes: Uint8Array, end = bytes.length): number {
  const length = end;
  for (let back = 1; back <= Math.min(4, length); back += 1) {
    const byte = bytes[length - back] ?? 0;
    if ((byte & 0xc0) === 0x80) continue;
    const needed = utf8SequenceLength(byte);
    return needed > back ? length - back : length;
  }
  return length;
}

/**
 * The largest index ≤ `limit` that starts a character (of `bytes[0, end)`), so a cut there
 * splits none.
 */
export function utf8BoundaryAtOrBefore(
  bytes: Uint8Array,
  limit: number,
  end = bytes.length,
): number {
  let index = Math.min(limit, end);
  for (let steps = 0; steps < 3 && index > 0 && index < end; steps += 1) {
    const byte = bytes[index] ?? 0;
    if ((byte & 0xc0) !== 0x80) break;
    index -= 1;
  }
  return index;
}

function utf8SequenceLength(leadByte: number): number {
  if (leadByte < 0x80) return 1;
  if (leadByte >= 0xc2 && leadByte <= 0xdf) return 2;
  if (leadByte >= 0xe0 && leadByte <= 0xef) return 3;
  if (leadByte >= 0xf0 && leadByte <= 0xf4) return 4;
  return 1; // not a lead byte: invalid, pass it through to decode as U+FFFD
}
