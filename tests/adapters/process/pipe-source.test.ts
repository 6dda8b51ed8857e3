import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { readPipe, READ_BUFFER_BYTES } from "../../../src/adapters/process/pipe-source.js";

const posixOnly = process.platform === "win32";

function collect(): { views: Buffer[]; copies: Buffer[]; ended: Promise<void>; end: () => void } {
  let end = (): void => undefined;
  const ended = new Promise<void>((resolve) => {
    end = resolve;
  });
  return {
    views: [],
    copies: [],
    ended,
    end: () => {
      end();
    },
  };
}

describe.skipIf(posixOnly)("readPipe on a child's pipe (POSIX only: /bin/sh, cat)", () => {
  it("delivers every byte in order, each read in the same reused buffer", async () => {
    const data = randomBytes(3 * 1024 * 1024 + 17);
    const child = spawn("/bin/sh", ["-c", "cat"], { stdio: ["pipe", "pipe", "ignore"] });
    const seen = collect();
    readPipe(child.stdout, {
      onBytes: (buffer, length) => {
        seen.views.push(buffer.subarray(0, length));
        seen.copies.push(Buffer.from(buffer.subarray(0, length)));
      },
      onEnd: seen.end,
    });
    child.stdin.end(data);
    await seen.ended;
    expect(Buffer.concat(seen.copies).equals(data)).toBe(true);
    expect(seen.views.length).toBeGreaterThan(1);
    expect(Math.max(...seen.views.map((view) => view.length))).toBeLessThanOrEqual(
      READ_BUFFER_BYTES,
    );
    // One buffer for all reads: a fresh one per read is the garbage this exists to avoid.
    expect(new Set(seen.views.map((view) => view.buffer)).size).toBe(1);
  });

  it("stops reading and closes the pipe on stop, so the writer ends and the child closes", async () => {
    const child = spawn("/bin/sh", ["-c", "yes"], { stdio: ["ignore", "pipe", "ignore"] });
    const closed = new Promise<string>((resolve) =>
      child.once("close", (code, signal) => {
        resolve(signal ?? String(code));
      }),
    );
    let reads = 0;
    let stop = (): void => undefined;
    const firstRead = new Promise<void>((resolve) => {
      stop = resolve;
    });
    const pipe = readPipe(child.stdout, {
      onBytes: () => {
        reads += 1;
        stop();
      },
      onEnd: () => undefined,
    });
    await firstRead;
    pipe.stop();
    const readsAtStop = reads;
    // With the pipe closed `yes` fails its next write (SIGPIPE, or EPIPE where that is ignored)
    // and ends; left open it would block forever. The child's own close event still comes.
    expect(await closed).not.toBe("0");
    expect(reads).toBe(readsAtStop);
  }, 10_000);
});

describe("readPipe on a stream without a pipe handle", () => {
  it("falls back to the stream's data events and still reports the end", async () => {
    const stream = new PassThrough();
    const seen = collect();
    readPipe(stream, {
      onBytes: (buffer, length) => seen.copies.push(Buffer.from(buffer.subarray(0, length))),
      onEnd: seen.end,
    });
    stream.write("one ");
    stream.end("two");
    await seen.ended;
    expect(Buffer.concat(seen.copies).toString("utf8")).toBe("one two");
  });
});
