import { LastBytes } from "./last-bytes.js";
import { READ_BUFFER_BYTES } from "./pipe-source.js";

/** How much of the output display gets at a time: its end, where the last line is. */
export const DISPLAY_TAIL_BYTES = 16 * 1024;
/** Display gets the output at most this often; what came meanwhile is passed on together. */
export const DISPLAY_EVERY_MS = 50;

const REDACTED = "[redacted]";

export interface DisplayHook {
  /** Each read, as it comes: `bytes[0, length)`, only valid during the call. */
  readonly onBytes: (bytes: Buffer, length?: number) => void;
  /** Passes on what is still held back: the command's output has ended. */
  readonly flush: () => void;
}

export interface DisplayHookOptions {
  readonly everyMs?: number;
  readonly now?: () => number;
}

/**
 * A display hook on the pipes' reads, with the run's secrets replaced like in the capture (a
 * secret split across two passes may show in part: display only).
 *
 * Display is a status line redrawn a few times a second, so reads are gathered into one reused
 * window of the last `DISPLAY_TAIL_BYTES` and decoded at most every `DISPLAY_EVERY_MS`. Decoding
 * 16 KiB of every 64 KiB read made a gigabyte of output leave hundreds of MiB of strings behind,
 * and that garbage alone made V8 grow its young generation by tens of MiB. What was
 * more than the window since the last pass is dropped from its start; a secret cut where the
 * window starts would show its own end, so the window holds the longest secret's length more,
 * and that much is dropped after redaction. The hook's failures are its own, never the run's.
 */
export function displayHook(
  secrets: readonly string[],
  onOutput: (text: string) => void,
  options: DisplayHookOptions = {},
): DisplayHook {
  const everyMs = options.everyMs ?? DISPLAY_EVERY_MS;
  const now = options.now ?? Date.now;
  const wanted = secrets.filter((secret) => secret !== "");
  const margin = Math.max(0, ...wanted.map((secret) => Buffer.byteLength(secret, "utf8")));
  // Room for one read more than the window, so a read is copied in whole (last-bytes.ts).
  const window = new LastBytes(DISPLAY_TAIL_BYTES + margin, READ_BUFFER_BYTES);
  let lastPass = -Infinity;
  let timer: NodeJS.Timeout | undefined;

  const pass = (): void => {
    clearTimeout(timer);
    timer = undefined;
    if (window.length === 0) return;
    lastPass = now();
    try {
      const bytes = window.bytes();
      const cut = window.dropped;
      const start = cut ? characterStart(bytes, 0, bytes.length) : 0;
      let text = bytes.toString("utf8", start);
      for (const secret of wanted) text = text.replaceAll(secret, REDACTED);
      // A character is at least one byte: `margin` characters cover the margin's bytes.
      onOutput(cut ? text.slice(margin) : text);
    } catch {
      // Display only.
    } finally {
      window.clear();
    }
  };

  return {
    onBytes: (bytes, length = bytes.length) => {
      window.push(bytes, length);
      // A pass is already due: the clock is read once per pass, not per read.
      if (timer !== undefined) return;
      const waited = now() - lastPass;
      if (waited >= everyMs) pass();
      else timer = setTimeout(pass, everyMs - waited).unref();
    },
    flush: pass,
  };
}

/** The first index at or after `index` (and before `end`) that starts a UTF-8 character. */
function characterStart(bytes: Buffer, index: number, end: number): number {
  let start = index;
  while (start < end && ((bytes[start] ?? 0) & 0xc0) === 0x80) start += 1;
  return start;
}
