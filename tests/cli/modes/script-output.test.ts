import { describe, expect, it } from "vitest";
import { bothObservers } from "../../../src/cli/modes/script-output.js";

describe("bothObservers", () => {
  it("lets each observer prepare, the second even when the first fails", () => {
    const prepared: string[] = [];
    const both = bothObservers(
      {
        prepare: () => {
          prepared.push("first");
          throw new Error("display broken");
        },
      },
      {
        prepare: () => {
          prepared.push("second");
        },
      },
    );
    both.prepare?.();
    expect(prepared).toEqual(["first", "second"]);
  });
});
