import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
  StreamReader,
  type StreamReaderOptions,
} from "../../../src/adapters/process/stream-reader.js";

const posixOnly = process.platform === "win32";
const LINE_CAP = 64 * 1024;
const SECRET = "sk-test-0123456789";

/**
 * What the sink is given when `data` goes through a real pipe (`cat`), each append copied: the
 * reader passes views of buffers it reuses, and the pipe's reads come in whatever sizes the
 * kernel gives, most of them short of a full buffer.
 */
async function appendsThroughPipe(data: Buffer, options: StreamReaderOptions): Promise<Buffer[]> {
  const child = spawn("cat", [], { stdio: ["pipe", "pipe", "ignore"] });
  const appends: Buffer[] = [];
  const reader = new StreamReader(
    child.stdout,
    { append: (bytes) => appends.push(Buffer.from(bytes)) },
    options,
  );
  const ended = new Promise<void>((resolve) => {
    reader.onActivity(() => {
      if (reader.ended) resolve();
    });
  });
  child.stdin.end(data);
  await ended;
  reader.finish();
  return appends;
}

describe.skipIf(posixOnly)("StreamReader on a real pipe (POSIX only: cat)", () => {
  it("passes 8 MiB of one endless line (like /dev/zero) on whole, in pieces of the line cap", async () => {
    const data = Buffer.alloc(8 * 1024 * 1024 + 123);
    const appends = await appendsThroughPipe(data, { secrets: [SECRET] });
    expect(Buffer.concat(appends).equals(data)).toBe(true);
    // Each piece is cut at the cap, the last one is what finish flushed.
    expect(appends.slice(0, -1).every((piece) => piece.length === LINE_CAP)).toBe(true);
    expect(appends.at(-1)?.length).toBe(data.length % LINE_CAP || LINE_CAP);
  });

  it("passes lines whole with secrets redacted, and long lines in pieces cut between characters", async () => {
    const lines: string[] = [];
    for (let index = 0; index < 400; index += 1) {
      lines.push(`line ${String(index)} key=${SECRET} ${"€".repeat(index * 37)}\n`);
      if (index % 50 === 7) lines.push(`${"é".repeat(40_000 + index)}\n`); // over the cap
    }
    const text = lines.join("");
    const appends = await appendsThroughPipe(Buffer.from(text, "utf8"), { secrets: [SECRET] });
    expect(Buffer.concat(appends).toString("utf8")).toBe(text.replaceAll(SECRET, "[redacted]"));
    for (const piece of appends) {
      // Each piece ends a line, or is a long line's piece cut at the cap, on a character boundary
      // at most three bytes before it (a UTF-8 character is at most four bytes).
      expect(
        piece.at(-1) === 0x0a || (piece.length <= LINE_CAP && piece.length > LINE_CAP - 4),
      ).toBe(true);
      expect(piece.toString("utf8")).not.toContain("\uFFFD");
    }
  });

  it("without secrets or a mark, passes whole characters only", async () => {
    const text = Array.from({ length: 30_000 }, (_, index) => `€${String(index)}😀é`).join("");
    const appends = await appendsThroughPipe(Buffer.from(text, "utf8"), {});
    expect(Buffer.concat(appends).toString("utf8")).toBe(text);
    for (const piece of appends) expect(piece.toString("utf8")).not.toContain("\uFFFD");
  });

  it("marks every line of a marked pipe, across reads", async () => {
    const lines = Array.from({ length: 20_000 }, (_, index) => `error ${String(index)}\n`);
    const appends = await appendsThroughPipe(Buffer.from(lines.join("")), { mark: "[stderr] " });
    expect(Buffer.concat(appends).toString("utf8")).toBe(
      lines.map((line) => `[stderr] ${line}`).join(""),
    );
  });
});
