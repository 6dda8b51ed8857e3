/**
 * A saved output's bytes, capped: a command that prints gigabytes (one wrote 1.9 GB in 15 s)
 * must not fill the person's disk through `.agent/outputs`. Up to the cap everything is written
 * as it comes; past it the file keeps its first half-cap and, at close, a marked cut and the last
 * half-cap (errors come last), which are held in memory meanwhile.
 */

export interface CappedWriter {
  write(bytes: Uint8Array): void;
  /** Writes the mark and the tail when there was a cut; returns how many bytes were cut. */
  finish(): number;
}

/** What stands where the middle was cut, in the file itself. */
export function cutMark(cutBytes: number, headBytes: number, tailBytes: number): string {
  return (
    `\n[agent-harness: ${String(cutBytes)} bytes cut here; a saved output keeps its first ` +
    `${String(headBytes)} and its last ${String(tailBytes)} bytes]\n`
  );
}

export function cappedWriter(writeAll: (bytes: Uint8Array) => void, cap: number): CappedWriter {
  const headLimit = Math.floor(cap / 2);
  const tail = new Uint8Array(cap - headLimit);
  let written = 0;
  let tailEnd = 0;
  let tailFilled = false;
  let cut = 0;
  const keepInTail = (bytes: Uint8Array): void => {
    if (tail.length === 0) {
      cut += bytes.length;
      return;
    }
    // Whatever falls out of the ring is cut.
    const incoming = bytes.length;
    const held = tailFilled ? tail.length : tailEnd;
    const overflow = Math.max(0, held + incoming - tail.length);
    cut += overflow;
    const source = incoming > tail.length ? bytes.subarray(incoming - tail.length) : bytes;
    const first = Math.min(source.length, tail.length - tailEnd);
    // Most writes fit before the ring's end and go in whole, without a view of a part.
    if (first === source.length) tail.set(source, tailEnd);
    else {
      tail.set(source.subarray(0, first), tailEnd);
      tail.set(source.subarray(first), 0);
    }
    const nextEnd = (tailEnd + source.length) % tail.length;
    if (tailEnd + source.length >= tail.length) tailFilled = true;
    tailEnd = nextEnd;
  };
  return {
    write(bytes) {
      const room = Math.max(0, headLimit - written);
      // Views only where a write straddles the head's end: one per read was garbage by the
      // gigabyte.
      if (room > 0) {
        const head = bytes.length <= room ? bytes : bytes.subarray(0, room);
        writeAll(head);
        written += head.length;
      }
      if (bytes.length > room) keepInTail(room === 0 ? bytes : bytes.subarray(room));
    },
    finish() {
      // The ring's two parts in order, written from the ring itself: a copy would hold the
      // tail's half-cap in memory twice at the end of every long command.
      const parts = tailFilled
        ? [tail.subarray(tailEnd), tail.subarray(0, tailEnd)]
        : [tail.subarray(0, tailEnd)];
      const keptBytes = parts.reduce((sum, part) => sum + part.length, 0);
      if (cut > 0) writeAll(Buffer.from(cutMark(cut, written, keptBytes), "utf8"));
      for (const part of parts) if (part.length > 0) writeAll(part);
      return cut;
    },
  };
}
