/**
 * Tidying after a takeover is best effort: once the rename has made the lock ours, a directory
 * that cannot be listed must not turn the won lock into an exception (the caller would never
 * release a lock it holds).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { lockRun } from "../../../src/adapters/journal/index.js";
import { scratchDirectories } from "../../support/scratch-directories.js";

const failing = vi.hoisted(() => ({ readdir: false }));

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const readdir = ((...args: Parameters<typeof fs.readdirSync>) => {
    if (failing.readdir)
      throw Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" });
    return fs.readdirSync(...args);
  }) as typeof fs.readdirSync;
  return { ...fs, default: { ...fs, readdirSync: readdir }, readdirSync: readdir };
});

/** No live process has this pid here. */
const DEAD_PID = 2 ** 22 + 1;

afterEach(() => {
  failing.readdir = false;
});

describe("lockRun when its directory cannot be listed", () => {
  const scratch = scratchDirectories("run-lock-cleanup-");
  it("still hands out the lock it took over from a dead holder", () => {
    const dir = scratch();
    const lock = join(dir, "r.lock");
    writeFileSync(lock, `${String(DEAD_PID)} 00112233445566778899\n`);
    failing.readdir = true;
    const held = lockRun(lock);
    expect(readFileSync(lock, "utf8").split(" ")[0]).toBe(String(process.pid));
    failing.readdir = false;
    held.release();
    expect(readdirSync(dir).filter((name) => !name.includes(".claim-"))).toEqual([]);
  });
});
