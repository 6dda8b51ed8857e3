import { appendFile, open, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { scanLineWindow } from "../../../src/adapters/filesystem/line-window.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/workspace.js";

describe("scanLineWindow", () => {
  let temp: TempWorkspace;
  beforeEach(async () => {
    temp = await makeTempWorkspace();
  });
  afterEach(async () => {
    await temp.cleanup();
  });

  it("reads no further than the size the file had when it was opened, however it grows", async () => {
    const file = join(temp.workspace, "grow.log");
    await writeFile(file, "one\ntwo\n");
    const handle = await open(file, "r");
    try {
      const { size } = await handle.stat();
      // Another process (a server logging, `yes > grow.log &`) appends meanwhile.
      await appendFile(file, "three\n".repeat(100_000));
      const scan = await scanLineWindow(handle, {
        firstLine: 2,
        lastLine: Infinity,
        maxBytes: 1024,
        fileBytes: size,
      });
      expect(scan).toEqual({ kind: "text", bytes: Buffer.from("two\n"), totalLines: 2 });
    } finally {
      await handle.close();
    }
  });
});
