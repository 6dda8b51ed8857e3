import { describe, expect, it } from "vitest";
import { builtOnce } from "../../../src/core/common/built-once.js";

describe("builtOnce", () => {
  it("builds nothing until first asked, then once, and hands out the same value", () => {
    let builds = 0;
    const value = builtOnce(() => {
      builds += 1;
      return { built: builds };
    });
    expect(builds).toBe(0);

    const first = value();
    expect(first).toEqual({ built: 1 });
    expect(value()).toBe(first);
    expect(builds).toBe(1);
  });

  it("remembers an undefined value too", () => {
    let builds = 0;
    const value = builtOnce((): string | undefined => {
      builds += 1;
      return undefined;
    });
    expect(value()).toBeUndefined();
    expect(value()).toBeUndefined();
    expect(builds).toBe(1);
  });
});
