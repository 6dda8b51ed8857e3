import { Socket } from "node:net";
import type { Readable } from "node:stream";

/** One read's worth: libuv reads a pipe 64 KiB at a time. */
export const READ_BUFFER_BYTES = 64 * 1024;

export interface PipeSourceEvents {
  /**
   * The bytes just read are `buffer[0, length)`, valid only during the call (the buffer is
   * reused). Not a view of them: that is an object per read, and a gigabyte of them grew V8's
   * young generation.
   */
  readonly onBytes: (buffer: Buffer, length: number) => void;
  /** End of file, close or a read error: no more bytes will come. */
  readonly onEnd: () => void;
}

/** A pipe being read; `stop` closes it and ignores whatever it still had. */
export interface PipeSource {
  stop(): void;
}

/**
 * Reads a child's pipe into one buffer reused for every read. Node's stream gives each read a
 * fresh 64 KiB buffer, and a gigabyte of output left tens of MiB of them waiting for the garbage
 * collector; `onread` (public on `net.Socket`) makes libuv read straight into ours. The child's
 * stream is built before we see it, so its pipe handle moves to a socket of ours with `onread`;
 * where that is not possible (no handle, a read already buffered) it falls back to `data` events.
 */
export function readPipe(stream: Readable, events: PipeSourceEvents): PipeSource {
  const own = userBufferSocket(stream, events.onBytes);
  const source = own ?? stream;
  if (own === undefined)
    stream.on("data", (chunk: Buffer) => {
      events.onBytes(chunk, chunk.length);
    });
  source.once("end", events.onEnd);
  source.once("close", events.onEnd);
  // A pipe error (EPIPE, reset) just ends this pipe's contribution.
  source.on("error", events.onEnd);
  return {
    stop: () => {
      for (const each of own === undefined ? [stream] : [own, stream]) {
        each.removeAllListeners("data");
        each.on("error", () => undefined);
        each.destroy();
      }
    },
  };
}

/** The part of a socket's pipe handle this relies on (Node's `LibuvStreamWrap`). */
interface PipeHandle {
  readonly useUserBuffer?: unknown;
}

function userBufferSocket(
  stream: Readable,
  onBytes: PipeSourceEvents["onBytes"],
): Socket | undefined {
  if (!(stream instanceof Socket) || stream.readableLength > 0) return undefined;
  const holder = stream as unknown as { _handle: PipeHandle | null };
  const handle = holder._handle;
  if (handle === null || typeof handle.useUserBuffer !== "function") return undefined;
  // The child's stream gives the handle up (left alone it would restart reading on exit); it
  // still closes when stopped, so the child's `close` event still comes.
  holder._handle = null;
  const buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
  return new Socket({
    handle,
    readable: true,
    writable: false,
    onread: {
      buffer,
      callback: (length: number) => {
        onBytes(buffer, length);
      },
    },
  } as ConstructorParameters<typeof Socket>[0]);
}
