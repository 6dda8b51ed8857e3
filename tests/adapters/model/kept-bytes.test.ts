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

  it("writes a lead before the text, measuring only where the worst case might not fit", () => {
    const kept = new KeptBytes(48);
    kept.encode("x".repeat(24)); // half the slab: a buffer of its own; the slab is still empty
    kept.encode("y".repeat(6)); // 6 of 48 (worst 18: unmeasured)
    const first = kept.encode('"é€😀"', ","); // 1 + 11 bytes (worst 21 fits in 42)
    expect(first).toEqual(Buffer.from(',"é€😀"'));
    // 30 bytes left: "abcdefghijklmnopq" (worst 54) is measured (17) and fits, then "€€€€"
    // (12 bytes, worst 12 < 13 left: unmeasured), then "€" (3, worst 3 > 1 left) is measured and
    // does not fit: a new slab.
    const second = kept.encode("abcdefghijklmnopq");
    const third = kept.encode("€€€€");
    expect([second.toString(), third.toString()]).toEqual(["abcdefghijklmnopq", "€€€€"]);
    expect(third.buffer).toBe(first.buffer);
    expect(third.byteOffset + third.length).toBe(47);
    const fourth = kept.encode("€");
    expect(fourth.buffer).not.toBe(first.buffer);
    expect(fourth.byteOffset).toBe(0);
    // Half a slab or more with its lead: a buffer of its own, the lead first.
    const large = kept.encode("€".repeat(8), ",");
    expect(large).toEqual(Buffer.from(`,${"€".repeat(8)}`));
    expect(large.buffer).not.toBe(fourth.buffer);
  });

  it("keeps the empty string empty", () => {
    expect(new KeptBytes(16).encode("").length).toBe(0);
  });
});
