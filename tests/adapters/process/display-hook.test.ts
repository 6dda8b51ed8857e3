import { describe, expect, it } from "vitest";
import { DISPLAY_TAIL_BYTES, displayHook } from "../../../src/adapters/process/display-hook.js";

function shown(secrets: readonly string[], bytes: Buffer): string[] {
  const seen: string[] = [];
  displayHook(secrets, (text) => seen.push(text))(bytes);
  return seen;
}

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
      hook(Buffer.from("hi\n"));
    }).not.toThrow();
  });
});
