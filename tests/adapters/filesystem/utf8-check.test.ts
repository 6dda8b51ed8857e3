import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { holdsInvalidUtf8 } from "../../../src/adapters/filesystem/utf8-check.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "utf8-check-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function check(bytes: Buffer | number, maxBytes?: number): Promise<boolean> {
  const path = join(dir, "f");
  if (typeof bytes === "number") {
    writeFileSync(path, "");
    truncateSync(path, bytes);
  } else {
    writeFileSync(path, bytes);
  }
  const handle = await open(path, "r");
  try {
    return await holdsInvalidUtf8(handle, maxBytes);
  } finally {
    await handle.close();
  }
}

describe("holdsInvalidUtf8", () => {
  const latin1 = Buffer.concat([
    Buffer.alloc(200_000, 0x61),
    Buffer.from([0x63, 0x61, 0x66, 0xe9]),
  ]);

  it("finds a Latin-1 byte within what it reads, and judges nothing past its limit", async () => {
    expect(await check(latin1)).toBe(true);
    expect(await check(latin1, 100_000)).toBe(false);
    // A sequence cut by the limit is not judged: é's first byte is the last one read.
    const cut = Buffer.concat([Buffer.alloc(9, 0x61), Buffer.from("é")]);
    expect(await check(cut, 10)).toBe(false);
    expect(await check(Buffer.concat([cut, Buffer.from([0xff])]))).toBe(true);
  });

  it("reads only up to its limit of a huge sparse file, so a write is not held for hours", async () => {
    // 1 TiB of NUL bytes on the disk's say-so: read whole, this would take about 100 minutes.
    expect(await check(2 ** 40)).toBe(false);
  });
});
