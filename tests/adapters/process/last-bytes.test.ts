import { describe, expect, it } from "vitest";
import { copyPrefix } from "../../../src/adapters/process/copy-prefix.js";
import { LastBytes } from "../../../src/adapters/process/last-bytes.js";

/** Bytes that differ from one position to the next, so a misplaced copy shows. */
function pattern(size: number, seed: number): Buffer {
  return Buffer.from(Array.from({ length: size }, (_, index) => (index * 7 + seed) % 251));
}

describe("copyPrefix", () => {
  it("copies only the first bytes of a longer source, leaving the rest of the target alone", () => {
    const target = Buffer.alloc(10, 0xee);
    copyPrefix(target, 2, Buffer.from([1, 2, 3, 4, 5]), 3);
    expect([...target]).toEqual([0xee, 0xee, 1, 2, 3, 0xee, 0xee, 0xee, 0xee, 0xee]);
    copyPrefix(target, 8, Buffer.from([9, 8]), 2);
    copyPrefix(target, 0, Buffer.from([7]), 0);
    expect([...target]).toEqual([0xee, 0xee, 1, 2, 3, 0xee, 0xee, 0xee, 9, 8]);
  });
});

describe("LastBytes", () => {
  // keep, room, and the chunks pushed as [size, how many of its bytes count].
  const cases: [string, number, number, [number, number][]][] = [
    [
      "chunks that fit, then slide",
      10,
      4,
      [
        [3, 3],
        [4, 4],
        [4, 2],
        [1, 1],
        [4, 4],
        [4, 3],
      ],
    ],
    [
      "a chunk as long as what is kept",
      10,
      4,
      [
        [2, 2],
        [10, 10],
        [3, 3],
      ],
    ],
    [
      "a chunk longer than the whole buffer",
      10,
      4,
      [
        [5, 5],
        [30, 30],
        [1, 1],
      ],
    ],
    [
      "a counted part longer than the buffer",
      10,
      4,
      [
        [2, 2],
        [40, 20],
        [3, 1],
      ],
    ],
    [
      "room smaller than one chunk",
      100,
      8,
      [
        [60, 60],
        [50, 30],
        [9, 9],
        [70, 70],
        [100, 99],
      ],
    ],
    [
      "reads of a pipe",
      13_501,
      65_536,
      [
        [65_536, 65_536],
        [65_536, 54_000],
        [65_536, 11_000],
      ],
    ],
    ["many small reads", 20, 64, Array.from({ length: 200 }, (_, i) => [i % 9, i % 9])],
  ];
  it.each(cases)("keeps the last bytes: %s", (_name, keep, room, chunks) => {
    const last = new LastBytes(keep, room);
    const all: Buffer[] = [];
    chunks.forEach(([size, length], seed) => {
      const bytes = pattern(size, seed);
      last.push(bytes, length);
      all.push(bytes.subarray(0, length));
      const whole = Buffer.concat(all);
      expect(last.bytes().equals(whole.subarray(Math.max(0, whole.length - keep)))).toBe(true);
      expect(last.length).toBe(Math.min(keep, whole.length));
      expect(last.dropped).toBe(whole.length > keep);
    });
  });

  it("starts over on clear, and says nothing was dropped since", () => {
    const last = new LastBytes(4, 4);
    last.push(Buffer.from("abcdefgh"));
    expect(last.dropped).toBe(true);
    last.clear();
    expect(last.length).toBe(0);
    expect(last.dropped).toBe(false);
    last.push(Buffer.from("xyz"));
    expect(last.bytes().toString()).toBe("xyz");
    expect(last.dropped).toBe(false);
  });
});
