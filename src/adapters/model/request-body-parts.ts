/**
 * A request body handed on as the parts it is made of. Joining them would copy the whole history
 * into a new buffer every turn, garbage by the next one, so the memory a run peaks at grew with
 * its history. This is a view of no bytes of its own: the SDK passes any ArrayBuffer view through
 * as it is, to our fetch (node-http-fetch.ts), which writes the parts in order under their total
 * Content-Length. Anything else would read an empty body, which a server refuses: never another
 * request than the one meant. The parts must not change once handed over.
 */
export class RequestBodyParts extends Uint8Array {
  /** `slice`, `map` and the like make plain arrays, not bodies of no parts. */
  static get [Symbol.species](): Uint8ArrayConstructor {
    return Uint8Array;
  }

  readonly parts: readonly Uint8Array[];
  /** The body's length: what the parts hold together. */
  readonly totalBytes: number;
  /** Called by our fetch once an attempt's whole body has been handed to the socket. */
  readonly onWritten: (() => void) | undefined;

  constructor(parts: readonly Uint8Array[], onWritten?: () => void) {
    super(0);
    this.parts = parts;
    this.totalBytes = parts.reduce((total, part) => total + part.byteLength, 0);
    this.onWritten = onWritten;
  }

  /** The parts joined: the body as one buffer (for a reader that is not our fetch, or a test). */
  joined(): Buffer {
    return Buffer.concat(this.parts);
  }
}
