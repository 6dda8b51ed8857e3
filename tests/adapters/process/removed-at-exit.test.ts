import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scratchDirectories } from "../../support/scratch-directories.js";

const MODULE = new URL("../../../src/adapters/process/removed-at-exit.ts", import.meta.url).href;

const scratch = scratchDirectories("removed-at-exit-");

describe("removedAtExit", () => {
  it("removes the directory, contents and all, at a process.exit that skips pending I/O; not once forgotten", () => {
    const base = scratch();
    const kept = join(base, "kept");
    const removed = join(base, "removed");
    for (const directory of [kept, removed]) {
      mkdirSync(join(directory, "inner"), { recursive: true });
      writeFileSync(join(directory, "inner", "file"), "x");
    }
    // The asynchronous removal is started and never awaited, as Ctrl-C's exit leaves it.
    const script = `
      import { rm } from "node:fs/promises";
      const { removedAtExit } = await import(${JSON.stringify(MODULE)});
      removedAtExit(${JSON.stringify(removed)});
      removedAtExit(${JSON.stringify(kept)})();
      void rm(${JSON.stringify(removed)}, { recursive: true });
      process.exit(3);
    `;
    const child = spawnSync(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "--eval", script],
      { encoding: "utf8" },
    );

    expect({ status: child.status, stderr: child.stderr }).toEqual({ status: 3, stderr: "" });
    expect(existsSync(removed)).toBe(false);
    expect(existsSync(join(kept, "inner", "file"))).toBe(true);
  });
});
