import { execFileSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { prepareCacheDirectory } from "../../../src/adapters/sandbox/cache-directory.js";

describe.skipIf(process.platform === "win32")("prepareCacheDirectory", () => {
  let base: string;
  const made: string[] = [];

  beforeEach(() => {
    base = mkdtempSync(join(realpathSync(tmpdir()), "cache-dir-"));
  });

  afterEach(() => {
    for (const path of [base, ...made.splice(0)]) rmSync(path, { recursive: true, force: true });
  });

  function fresh(wanted: string, uid?: number) {
    const prepared = prepareCacheDirectory(wanted, uid);
    if (prepared.directory !== wanted) made.push(prepared.directory);
    return prepared;
  }

  it("makes the directory owner-only when missing, and uses one that is ours", () => {
    const wanted = join(base, "cache");
    expect(fresh(wanted)).toEqual({ directory: wanted });
    expect(lstatSync(wanted).mode & 0o777).toBe(0o700);
    expect(fresh(wanted)).toEqual({ directory: wanted });
  });

  it.each([
    [
      "a symbolic link",
      (path: string) => {
        symlinkSync(join(base, "elsewhere"), path);
      },
    ],
    ["a FIFO", (path: string) => execFileSync("mkfifo", [path])],
  ])("leaves %s alone and uses a fresh private directory", (what, plant) => {
    mkdirSync(join(base, "elsewhere"));
    const wanted = join(base, "cache");
    plant(wanted);
    const prepared = fresh(wanted);
    expect(prepared.directory).not.toBe(wanted);
    expect(lstatSync(prepared.directory).isDirectory()).toBe(true);
    expect(prepared.notice).toBe(
      `the sandbox cache ${wanted} ${what === "a FIFO" ? "is not a directory" : "is a symbolic link"}; it is not used, this run caches in ${prepared.directory}`,
    );
    expect(existsSync(join(base, "elsewhere", "npm"))).toBe(false);
  });

  it("does not use a directory someone else owns", () => {
    const wanted = join(base, "cache");
    mkdirSync(wanted);
    const owner = lstatSync(wanted).uid;
    const prepared = fresh(wanted, owner + 1);
    expect(prepared.notice).toBe(
      `the sandbox cache ${wanted} is owned by another user (uid ${String(owner)}); it is not used, this run caches in ${prepared.directory}`,
    );
  });
});
