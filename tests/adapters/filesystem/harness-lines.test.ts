import { execFileSync } from "node:child_process";
import { symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { readHarnessInput, readHarnessLines } from "../../../src/adapters/filesystem/index.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/workspace.js";

let temp: TempWorkspace;

beforeEach(async () => {
  temp = await makeTempWorkspace("harness-lines-");
});

afterEach(async () => {
  await temp.cleanup();
});

/** What `readHarnessLines` hands over, joined back, with its line ends. */
function linesOf(path: string, maxBytes = 1 << 24): { text: string; whole: number; cut: number } {
  const chunks: string[] = [];
  const ends = readHarnessLines(path, maxBytes, (lines) => chunks.push(lines));
  return { text: chunks.join("\n"), whole: ends.wholeBytes, cut: ends.cutBytes };
}

describe("readHarnessLines", () => {
  it("gives the whole lines as decoding the whole file would, across its 64 KiB chunks", async () => {
    // Multi-byte characters on both sides of every chunk boundary, a line longer than a chunk,
    // a byte that is not UTF-8, and a last line cut short (a crash mid-write) after it all.
    const line = (index: number): Buffer =>
      Buffer.concat([
        Buffer.from(`${String(index)} é€😀 `.repeat(index % 7 === 0 ? 9_000 : 40)),
        Buffer.from("\n"),
      ]);
    const parts = Array.from({ length: 300 }, (_, index) => line(index));
    parts.splice(150, 0, Buffer.from([0x61, 0xff, 0xe2, 0x82, 0x0a]));
    const tail = Buffer.from("cut 😀 ré");
    const bytes = Buffer.concat([...parts, tail]);
    const path = join(temp.root, "journal.jsonl");
    await writeFile(path, bytes);

    const read = linesOf(path);

    const whole = bytes.subarray(0, bytes.length - tail.length);
    expect(read.text).toBe(whole.subarray(0, whole.length - 1).toString("utf8"));
    expect(read.text.split("\n")).toHaveLength(301);
    expect(read).toMatchObject({ whole: whole.length, cut: tail.length });
  });

  it("joins a line of many chunks once, not again at every chunk", async () => {
    // A model reply can be megabytes on one journal line: joined chunk by chunk, an 8 MiB line
    // was copied ~N²/128 KiB bytes over (327 ms against 79 for the whole file read at once).
    const line = "x".repeat(40 * 64 * 1024 + 5);
    const path = join(temp.root, "long.jsonl");
    await writeFile(path, `${line}\nshort\n`);
    const concat = vi.spyOn(Buffer, "concat");
    try {
      const read = linesOf(path);
      expect(read.text).toBe(`${line}\nshort`);
      const copied = concat.mock.calls.reduce(
        (total, [list]) => total + list.reduce((sum, piece) => sum + piece.length, 0),
        0,
      );
      expect(copied).toBeLessThanOrEqual(line.length + 64 * 1024);
    } finally {
      concat.mockRestore();
    }
  });

  it("counts no cut bytes when the input ends with a newline, and hands nothing for none", async () => {
    const path = join(temp.root, "two.jsonl");
    await writeFile(path, "one\ntwo\n");
    expect(linesOf(path)).toEqual({ text: "one\ntwo", whole: 8, cut: 0 });
    const empty = join(temp.root, "empty.jsonl");
    await writeFile(empty, "");
    expect(linesOf(empty)).toEqual({ text: "", whole: 0, cut: 0 });
    const noNewline = join(temp.root, "cut.jsonl");
    await writeFile(noNewline, "half a rec");
    expect(linesOf(noNewline)).toEqual({ text: "", whole: 0, cut: 10 });
  });

  it("refuses what readHarnessInput refuses, in its words", async () => {
    const big = join(temp.root, "big.jsonl");
    await writeFile(big, "x\n".repeat(100));
    const link = join(temp.root, "link.jsonl");
    await symlink(big, link);
    const fifo = join(temp.root, "fifo.jsonl");
    execFileSync("mkfifo", [fifo]);
    for (const [path, maxBytes] of [
      [big, 10],
      [link, 1000],
      [fifo, 1000],
    ] as const) {
      const words = (read: () => unknown): string => {
        try {
          read();
          return "read";
        } catch (error) {
          return (error as Error).message;
        }
      };
      const expected = words(() => readHarnessInput(path, maxBytes));
      expect(expected).not.toBe("read");
      expect(words(() => readHarnessLines(path, maxBytes, () => undefined))).toBe(expected);
    }
  });

  it("rethrows what the taker throws, as it is", async () => {
    const path = join(temp.root, "lines.jsonl");
    await writeFile(path, "a\nb\n");
    const refusal = new Error("not a record");
    expect(() =>
      readHarnessLines(path, 1000, () => {
        throw refusal;
      }),
    ).toThrow(refusal);
  });
});
