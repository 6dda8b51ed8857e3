import { afterEach, describe, expect, it, vi } from "vitest";
import { DISPLAY_TAIL_BYTES, displayHook } from "../../../src/adapters/process/display-hook.js";

/**
 * The reads as display sees them, on a clock that stands still: only the first read passes at once
 * and the rest are gathered until flush. On the real clock a loaded machine could let 50 ms pass
 * between two reads and split the gathered pass in two (this test failed 2 of 4 runs under load).
 */
function shown(secrets: readonly string[], ...reads: Buffer[]): string[] {
  const seen: string[] = [];
  const hook = displayHook(secrets, (text) => seen.push(text), { now: () => 0 });
  for (const bytes of reads) hook.onBytes(bytes);
  hook.flush();
  return seen;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("displayHook", () => {
  it("passes a short read whole, secrets replaced", () => {
    expect(shown(["sk-0123456789"], Buffer.from("key=sk-0123456789\nok\n"))).toEqual([
      "key=[redacted]\nok\n",
    ]);
  });

  it("passes only the end of a long read, starting on a character", () => {
    const bytes = Buffer.from(`${"€".repeat(20_000)}\nlast line\n`, "utf8");
    const [text] = shown([], bytes);
    expect(text?.endsWith("€\nlast line\n")).toBe(true);
    expect(text).not.toContain("\uFFFD");
    expect(Buffer.byteLength(text ?? "")).toBeLessThanOrEqual(DISPLAY_TAIL_BYTES);
    expect(Buffer.byteLength(text ?? "")).toBeGreaterThan(DISPLAY_TAIL_BYTES - 3);
  });

  it("never shows the end of a secret cut where the shown end starts", () => {
    const secret = "sk-0123456789abcdef";
    // The last 16 KiB start five bytes into the secret: shown from there, "56789abcdef" would leak.
    const after = DISPLAY_TAIL_BYTES - secret.length + 5;
    const bytes = Buffer.from(`${"x".repeat(1000)}${secret}${"y".repeat(after)}`);
    const [text] = shown([secret], bytes);
    expect(text?.endsWith(`]${"y".repeat(after)}`)).toBe(true);
    expect(text).not.toMatch(/[0-9a-f]{3}/u);
  });

  it("keeps a display that throws from reaching the run", () => {
    const hook = displayHook([], () => {
      throw new Error("display broke");
    });
    expect(() => {
      hook.onBytes(Buffer.from("hi\n"));
      hook.flush();
    }).not.toThrow();
  });

  it("passes the first read at once and gathers the next ones until the interval is over", () => {
    vi.useFakeTimers();
    const seen: string[] = [];
    const hook = displayHook([], (text) => seen.push(text), { everyMs: 50, now: Date.now });
    hook.onBytes(Buffer.from("one\n"));
    expect(seen).toEqual(["one\n"]);
    hook.onBytes(Buffer.from("two\n"));
    hook.onBytes(Buffer.from("three\n"));
    expect(seen).toEqual(["one\n"]);
    vi.advanceTimersByTime(50);
    expect(seen).toEqual(["one\n", "two\nthree\n"]);
    // Nothing held: the timer has nothing to pass, and flush adds nothing.
    vi.advanceTimersByTime(500);
    hook.flush();
    expect(seen).toEqual(["one\n", "two\nthree\n"]);
  });

  it("flush passes what is held at once, and the timer then passes nothing twice", () => {
    vi.useFakeTimers();
    const seen: string[] = [];
    const hook = displayHook([], (text) => seen.push(text), { everyMs: 50, now: Date.now });
    hook.onBytes(Buffer.from("a"));
    hook.onBytes(Buffer.from("b"));
    hook.flush();
    vi.advanceTimersByTime(100);
    expect(seen).toEqual(["a", "b"]);
  });

  it("shows only the counted part of a read", () => {
    const seen: string[] = [];
    const hook = displayHook([], (text) => seen.push(text), { now: () => 0 });
    hook.onBytes(Buffer.from("shown\nnot this"), 6);
    hook.flush();
    expect(seen).toEqual(["shown\n"]);
  });

  it("reads the clock once per pass, not once per read, while a pass is due", () => {
    vi.useFakeTimers();
    let clockReads = 0;
    const now = (): number => {
      clockReads += 1;
      return Date.now();
    };
    const seen: string[] = [];
    const hook = displayHook([], (text) => seen.push(text), { everyMs: 50, now });
    for (let read = 0; read < 100; read += 1) hook.onBytes(Buffer.from("x"));
    // The first read passes at once (two reads: the wait, the pass); the second starts the timer.
    expect(seen).toEqual(["x"]);
    expect(clockReads).toBe(3);
    vi.advanceTimersByTime(50);
    expect(seen).toEqual(["x", "x".repeat(99)]);
    expect(clockReads).toBe(4);
  });

  it("keeps only the last window of many gathered reads, from a character start", () => {
    const reads = Array.from({ length: 40 }, (_, index) =>
      Buffer.from(`${"é".repeat(1000)}${String(index)}\n`, "utf8"),
    );
    // The first read passes at once; the other 39 (about 78 KB) are gathered into one pass.
    const texts = shown([], ...reads);
    expect(texts).toHaveLength(2);
    const gathered = texts[1] ?? "";
    expect(gathered.endsWith("é39\n")).toBe(true);
    expect(gathered).not.toContain("\uFFFD");
    expect(Buffer.byteLength(gathered)).toBeLessThanOrEqual(DISPLAY_TAIL_BYTES);
    expect(Buffer.byteLength(gathered)).toBeGreaterThan(DISPLAY_TAIL_BYTES - 2);
  });

  it("never shows the end of a secret cut where the gathered window starts", () => {
    const secret = "sk-0123456789abcdef";
    // The window is the last DISPLAY_TAIL_BYTES plus the secret's length; with this many bytes
    // after it, the window starts five bytes into the secret, and "23456789abcdef" would leak.
    const after = DISPLAY_TAIL_BYTES + 5;
    const rest = Array.from({ length: after / 3 }, () => Buffer.from("yyy"));
    const texts = shown(
      [secret],
      Buffer.from("x"),
      Buffer.from("z".repeat(100)),
      Buffer.from(secret),
      ...rest,
    );
    expect(texts).toEqual(["x", "y".repeat(DISPLAY_TAIL_BYTES)]);
  });
});
