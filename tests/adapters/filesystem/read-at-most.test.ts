/**
 * `readAtMostSync` with the size fstat gave: one read when the file is that size, and still the
 * whole file, or the refusal, when it is not (a file can grow or shrink between fstat and read).
 */
import { closeSync, openSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readAtMostSync } from "../../../src/adapters/filesystem/safe-open.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/workspace.js";

let dir: TempWorkspace;
beforeEach(async () => {
  dir = await makeTempWorkspace("agent-read-at-most-");
});
afterEach(() => dir.cleanup());

function readWith(bytes: Buffer, maxBytes: number, expectedBytes?: number): Buffer | undefined {
  const path = join(dir.outside, "file");
  writeFileSync(path, bytes);
  const fd = openSync(path, "r");
  try {
    return readAtMostSync(fd, maxBytes, expectedBytes);
  } finally {
    closeSync(fd);
  }
}

const MiB = 1024 * 1024;
const bytes = Buffer.from(Array.from({ length: 3 * MiB + 17 }, (_, index) => index % 251));

describe("readAtMostSync", () => {
  it.each([
    ["the size it has", bytes.length],
    ["a smaller size (it grew)", 100],
    ["no size at all", 0],
    ["a larger size (it shrank)", bytes.length * 2],
    ["no expected size", undefined],
  ])("reads the whole file when told %s", (_what, expected) => {
    expect(readWith(bytes, 64 * MiB, expected)?.equals(bytes)).toBe(true);
  });

  it.each([[bytes.length], [100], [undefined]])(
    "refuses a file past the limit, whatever size it was expected at (%s)",
    (expected) => {
      expect(readWith(bytes, bytes.length - 1, expected)).toBeUndefined();
    },
  );

  it("reads an empty file as empty", () => {
    expect(readWith(Buffer.alloc(0), 10, 0)?.length).toBe(0);
  });
});
