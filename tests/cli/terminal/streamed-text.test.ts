import { describe, expect, it } from "vitest";
import { StreamedText } from "../../../src/cli/terminal/progress/streamed-text.js";

/** Everything written for the pieces, the end included, and what each piece wrote on its own. */
function stream(pieces: readonly string[], columns?: number): { all: string; each: string[] } {
  const text = new StreamedText(columns);
  const each = pieces.map((piece) => text.add(piece));
  return { all: each.join("") + text.end(), each };
}

describe("StreamedText", () => {
  it("counts a run of invisible characters once, however the pieces cut it", () => {
    const { all, each } = stream([`a${"\u200b".repeat(3)}`, `${"\u200b".repeat(3)}b`]);
    expect(all).toBe("  a⟨6 × U+200B⟩b\n");
    // The run is held back until it is known to be over.
    expect(each[0]).toBe("  a");
  });

  it("counts long blank padding, as the final answer does", () => {
    const { all } = stream([`${" ".repeat(40)}x`, "\u3164".repeat(5)]);
    expect(all).toBe("  ⟨40 spaces⟩x⟨5 × U+3164⟩\n");
  });

  it("counts combining marks stacked across pieces", () => {
    const marks = "\u0301".repeat(10);
    expect(stream([`e${marks}`, `${marks}!`]).all).toBe("  e⟨20 combining marks⟩!\n");
  });

  it("shows a long run in counted parts rather than holding it back without end", () => {
    const pieces = [...Array.from({ length: 100 }, () => " ".repeat(100)), "x"];
    const { all, each } = stream(pieces);
    expect(all).toBe("  ⟨4100 spaces⟩⟨4100 spaces⟩⟨1800 spaces⟩x\n");
    expect(each.every((written) => !written.includes("  ".repeat(20)))).toBe(true);
  });

  it("joins a surrogate pair cut between two pieces", () => {
    expect(stream(["x\ud83d", "\ude00 y"]).all).toBe("  x😀 y\n");
    // Two tag characters (hidden, but too few to count), each cut in half: still two characters.
    expect(stream(["x\udb40", "\udc01\udb40", "\udc02y"]).all).toBe("  x\u{e0001}\u{e0002}y\n");
    // A high surrogate that never gets its other half is shown as an escape at the end.
    expect(stream(["x\ud83d"]).all).toBe("  x\\u{d83d}\n");
  });

  it("still joins a CRLF cut between pieces, and shows a lone carriage return", () => {
    expect(stream(["a\r", "\nb"]).all).toBe("  a\n  b\n");
    expect(stream(["a\r", "b"]).all).toBe("  a\\rb\n");
  });
});
