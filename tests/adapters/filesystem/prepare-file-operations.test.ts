import { spawnSync } from "node:child_process";
import { constants, openSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { prepareFileOperations } from "../../../src/adapters/filesystem/prepare-file-operations.js";
import { scratchDirectories } from "../../support/scratch-directories.js";

const scratch = scratchDirectories("agent-prepare-files-");
const linux = process.platform === "linux";

/** This process's open descriptors (Linux). */
function openDescriptors(): number {
  return readdirSync("/proc/self/fd").length;
}

describe("prepareFileOperations", () => {
  it.runIf(linux)("opens the workspace directory and closes it again", async () => {
    const workspace = scratch();
    const before = openDescriptors();
    await prepareFileOperations(workspace);
    expect(openDescriptors()).toBe(before);
    expect(readdirSync(workspace)).toEqual([]);
  });

  it.runIf(linux)("never opens a FIFO planted as the workspace, nor waits on it", async () => {
    const fifo = join(scratch(), "workspace");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    await prepareFileOperations(fifo);
    // Had it opened the FIFO to read, a writer would find a reader; with none, this is ENXIO.
    expect(() => openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK)).toThrow(
      expect.objectContaining({ code: "ENXIO" }),
    );
  });

  it("settles without an error for a file, a link to one or nothing at all", async () => {
    const root = scratch();
    writeFileSync(join(root, "file"), "x");
    // Windows makes links only with a privilege.
    const names = process.platform === "win32" ? ["file", "missing"] : ["file", "link", "missing"];
    if (names.includes("link")) symlinkSync(join(root, "file"), join(root, "link"));
    for (const name of names) {
      await expect(prepareFileOperations(join(root, name))).resolves.toBeUndefined();
    }
  });
});
