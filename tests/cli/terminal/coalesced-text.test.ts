import { describe, expect, it } from "vitest";
import { CoalescedText } from "../../../src/cli/terminal/progress/coalesced-text.js";

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

describe("CoalescedText", () => {
  it("writes the pieces of one turn of the event loop once, in order", async () => {
    const writes: string[] = [];
    const text = new CoalescedText((piece) => writes.push(piece));
    text.add("a");
    text.add("");
    text.add("b");
    text.add("c");
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual(["abc"]);
    text.add("d");
    await nextTurn();
    expect(writes).toEqual(["abc", "d"]);
  });

  it("writes what waits at once on flush, and nothing twice", async () => {
    const writes: string[] = [];
    const text = new CoalescedText((piece) => writes.push(piece));
    text.add("streamed ");
    text.flush();
    writes.push("[the next line]");
    text.flush();
    await nextTurn();
    expect(writes).toEqual(["streamed ", "[the next line]"]);
  });
});
