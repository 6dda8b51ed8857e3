import type {
  OmittedOutput,
  OutputSpill,
  OutputSpillFile,
} from "../../core/ports/command-runner.js";
import { utf8BoundaryAtOrBefore } from "./bounded-output.js";
import { LastBytes } from "./last-bytes.js";
import { READ_BUFFER_BYTES } from "./pipe-source.js";

/** Share of the byte cap each end gets once output overflows; the rest is room for the notice. */
const END_SHARE = 0.45;

/**
 * A command's output in bounded memory, whatever its size: everything up to the cap; beyond it,
 * the head and the tail (errors come last), a count of what was left out, and the whole output
 * streamed to a spill file opened at the first overflow.
 */
export class CapturedOutput {
  readonly #limit: number;
  readonly #headLimit: number;
  readonly #tailLimit: number;
  readonly #spill: OutputSpill | undefined;
  #file: OutputSpillFile | undefined;
  #head: Buffer[] = [];
  #headBytes = 0;
  /** The last bytes past the head, one more than the tail keeps: is the tail on a line start? */
  #tail: LastBytes | undefined;
  #overflowed = false;
  #totalBytes = 0;
  #totalLines = 0;

  constructor(limit: number, spill?: OutputSpill) {
    this.#limit = limit;
    this.#headLimit = Math.floor(limit * END_SHARE);
    this.#tailLimit = Math.floor(limit * END_SHARE);
    this.#spill = spill;
  }

  append(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.#totalBytes += bytes.length;
    this.#totalLines += countNewlines(bytes);
    if (!this.#overflowed && this.#headBytes + bytes.length <= this.#limit) {
      this.#head.push(Buffer.from(bytes));
      this.#headBytes += bytes.length;
      return;
    }
    if (!this.#overflowed) {
      this.#overflow(bytes);
      return;
    }
    this.#write(bytes);
    this.#tail?.push(bytes);
  }

  /** The kept text; closes the spill file. */
  result(): { output: string; truncated: boolean; omitted?: OmittedOutput } {
    const head = Buffer.concat(this.#head);
    if (!this.#overflowed) return { output: head.toString("utf8"), truncated: false };
    this.close();
    const tail = tailStart(this.#tail?.bytes() ?? Buffer.alloc(0), this.#tailLimit);
    const omittedBytes = this.#totalBytes - head.length - tail.length;
    const savedCutBytes = this.#file?.cutBytes?.() ?? 0;
    const omitted: OmittedOutput = {
      bytes: omittedBytes,
      lines: this.#totalLines - countNewlines(head) - countNewlines(tail),
      tail: tail.toString("utf8"),
      totalBytes: this.#totalBytes,
      ...(this.#file === undefined ? {} : { savedTo: this.#file.path }),
      ...(savedCutBytes > 0 ? { savedCutBytes } : {}),
    };
    return { output: head.toString("utf8"), truncated: true, omitted };
  }

  /** Closes the spill file (idempotent); the run is over. */
  close(): void {
    try {
      this.#file?.close();
    } catch {
      // Nothing more to write; a failed close loses nothing the message needs.
    }
  }

  #overflow(bytes: Buffer): void {
    this.#overflowed = true;
    this.#file = this.#openSpill();
    const all = Buffer.concat([...this.#head, bytes]);
    this.#write(all);
    const headEnd = headEnd_(all, this.#headLimit);
    this.#head = [Buffer.from(all.subarray(0, headEnd))];
    this.#headBytes = headEnd;
    // Room for a read more, so each read is copied in whole (last-bytes.ts).
    this.#tail = new LastBytes(this.#tailLimit + 1, READ_BUFFER_BYTES);
    this.#tail.push(all.subarray(headEnd));
  }

  #openSpill(): OutputSpillFile | undefined {
    try {
      return this.#spill?.open();
    } catch {
      return undefined;
    }
  }

  #write(bytes: Buffer): void {
    if (this.#file === undefined) return;
    try {
      this.#file.write(bytes);
    } catch {
      // A disk that fills up: stop saving, say nothing was saved rather than a partial file.
      this.close();
      this.#file = undefined;
    }
  }
}

/** The head ends after a newline near the cap when there is one, else on a character boundary. */
function headEnd_(bytes: Buffer, limit: number): number {
  const cut = utf8BoundaryAtOrBefore(bytes, limit);
  const newline = bytes.lastIndexOf(0x0a, cut - 1);
  return newline >= cut / 2 ? newline + 1 : cut;
}

/** The last `limit` bytes, starting on a character, and on a line when one starts early enough. */
function tailStart(bytes: Buffer, limit: number): Buffer {
  let start = Math.max(0, bytes.length - limit);
  while (start < bytes.length && ((bytes[start] ?? 0) & 0xc0) === 0x80) start += 1;
  if (start > 0 && bytes[start - 1] !== 0x0a) {
    const newline = bytes.indexOf(0x0a, start);
    if (newline !== -1 && newline - start < limit / 2) start = newline + 1;
  }
  return bytes.subarray(start);
}

function countNewlines(bytes: Uint8Array): number {
  let count = 0;
  let index = -1;
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes);
  for (;;) {
    index = buffer.indexOf(0x0a, index + 1);
    if (index === -1) return count;
    count += 1;
  }
}
