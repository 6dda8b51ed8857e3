/**
 * The write boundary's fast path (issue 32) against realpath itself: wherever the walk answers,
 * it answers what realpath of the deepest existing name (plus the missing names as written)
 * gives; wherever a link is on the way, it leaves the path to the full resolution.
 */
import { realpathSync } from "node:fs";
import { mkdir, rm, symlink, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { walkWithoutLinks } from "../../../src/adapters/filesystem/link-free-walk.js";
import { RealRootOnce } from "../../../src/adapters/filesystem/real-root-once.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/temp-workspace.js";

let temp: TempWorkspace;

beforeEach(async () => {
  temp = await makeTempWorkspace();
  await mkdir(join(temp.ws, "src", "deep"), { recursive: true });
  await writeFile(join(temp.ws, "src", "a.ts"), "");
  await symlink(join(temp.ws, "src"), join(temp.ws, "alias"));
  await symlink(temp.evil, join(temp.ws, "out"));
  await symlink(join(temp.ws, "missing"), join(temp.ws, "dangling"));
  await symlink(temp.evil, join(temp.ws, "src", "deep", "away"));
});
afterEach(() => temp.cleanup());

/** realpath of the deepest name that resolves, then the rest as written. */
function oracle(segments: readonly string[]): { target: string; missing: number } {
  const missing: string[] = [];
  for (let current = join(temp.ws, ...segments); ; current = dirname(current)) {
    try {
      return { target: join(realpathSync.native(current), ...missing), missing: missing.length };
    } catch {
      missing.unshift(basename(current));
    }
  }
}

describe.runIf(process.platform === "linux")("walkWithoutLinks", () => {
  it.each([
    [[]],
    [["src"]],
    [["src", "a.ts"]],
    [["src", "deep", "new.ts"]],
    [["src", "new", "dir", "x.ts"]],
    [["src", "a.ts", "below-a-file"]],
    [["missing", "x"]],
  ])("answers as realpath does where no link is on the way: %j", (segments) => {
    expect(walkWithoutLinks(temp.ws, segments)).toEqual(oracle(segments));
  });

  it.each([[["alias", "a.ts"]], [["out", "x"]], [["dangling"]], [["src", "deep", "away", "x"]]])(
    "leaves a path through a link to the full resolution: %j",
    (segments) => {
      expect(walkWithoutLinks(temp.ws, segments)).toBeUndefined();
    },
  );
});

describe("RealRootOnce", () => {
  it("keeps the workspace's real path, and does not keep a failure", async () => {
    const roots = new RealRootOnce();
    const later = join(temp.base, "later");
    expect(() => roots.of(later)).toThrow(/ENOENT/u);
    await mkdir(later);
    expect(roots.of(later)).toBe(later);
    expect(roots.of(join(temp.ws, "alias"))).toBe(join(temp.ws, "src"));
    // Kept for the run: decisions stay checked against the directory the run started in.
    await rm(join(temp.ws, "alias"));
    await symlink(temp.evil, join(temp.ws, "alias"));
    expect(roots.of(join(temp.ws, "alias"))).toBe(join(temp.ws, "src"));
  });
});
