/** How much of one long read display gets: its end, where the last line is. */
export const DISPLAY_TAIL_BYTES = 16 * 1024;

const REDACTED = "[redacted]";

/**
 * A display hook on the pipes' reads, with the run's secrets replaced like in the capture (a
 * secret split across two reads may show in part: display only). A read longer than
 * `DISPLAY_TAIL_BYTES` is shown by its end only: decoding every 64 KiB of a gigabyte to show one
 * line cost more than reading it. A secret cut by where that end starts would show its own end,
 * so the window starts the longest secret earlier and that much is dropped after redaction. The
 * hook's failures are its own, never the run's.
 */
export function displayHook(
  secrets: readonly string[],
  onOutput: (text: string) => void,
): (bytes: Buffer) => void {
  const wanted = secrets.filter((secret) => secret !== "");
  const margin = Math.max(0, ...wanted.map((secret) => Buffer.byteLength(secret, "utf8")));
  return (bytes) => {
    try {
      const cut = bytes.length > DISPLAY_TAIL_BYTES + margin;
      const start = cut ? characterStart(bytes, bytes.length - DISPLAY_TAIL_BYTES - margin) : 0;
      let text = bytes.toString("utf8", start);
      for (const secret of wanted) text = text.replaceAll(secret, REDACTED);
      // A character is at least one byte: `margin` characters cover the margin's bytes.
      onOutput(cut ? text.slice(margin) : text);
    } catch {
      // Display only.
    }
  };
}

/** The first index at or after `index` that starts a UTF-8 character. */
function characterStart(bytes: Buffer, index: number): number {
  let start = index;
  while (start < bytes.length && ((bytes[start] ?? 0) & 0xc0) === 0x80) start += 1;
  return start;
}
