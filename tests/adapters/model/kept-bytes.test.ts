import { describe, expect, it } from "vitest";
import { KeptBytes } from "../../../src/adapters/model/kept-bytes.js";

describe("KeptBytes", () => {
  it("gives each string's exact UTF-8 bytes, packed one after another in one slab", () => {
    const kept = new KeptBytes(64);
    const first = kept.encode(',{"a":"ünï"}');
    const second = kept.encode("🙂\u2028");
    expect(first.toString("utf8")).toBe(',{"a":"ünï"}');
    expect(first).toEqual(Buffer.from(',{"a":"ünï"}'));
    expect(second).toEqual(Buffer.from("🙂\u2028"));
    expect(second.buffer).toBe(first.buffer);
    expect(second.byteOffset).toBe(first.byteOffset + first.length);
  });

  it("starts a new slab when a string does not fit, leaving the bytes handed out unchanged", () => {
    const kept = new KeptBytes(16);
    const first = kept.encode("abcdefg"); // 7 of 16
    const second = kept.encode("hijklmn"); // 14 of 16
    const third = kept.encode("opqrstu"); // does not fit: a new slab
    expect([first, second, third].map((bytes) => bytes.toString())).toEqual([
      "abcdefg",
      "hijklmn",
      "opqrstu",
    ]);
    expect(second.buffer).toBe(first.buffer);
    expect(third.buffer).not.toBe(first.buffer);
    expect(third.byteOffset).toBe(0);
  });

  it("gives a string of half a slab or more a buffer of its own", () => {
    const kept = new KeptBytes(16);
    const small = kept.encode("ab");
    const large = kept.encode("x".repeat(8));
    expect(large.toString()).toBe("xxxxxxxx");
    expect(large.buffer).not.toBe(small.buffer);
    expect(kept.encode("cd").buffer).toBe(small.buffer);
  });

  it("keeps the empty string empty", () => {
    expect(new KeptBytes(16).encode("").length).toBe(0);
  });
});
