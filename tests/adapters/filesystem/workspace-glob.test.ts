import { mkdir, realpath, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GlobPattern } from "../../../src/adapters/filesystem/glob-pattern.js";
import {
  globWorkspace,
  type DirectoryListing,
} from "../../../src/adapters/filesystem/workspace-glob.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/temp-workspace.js";

// The walk keeps each directory's matches in order instead of sorting whole paths at the end.
// These trees are where the two could differ: a directory whose name is a prefix of its
// siblings' (`a/…` sorts after `a-b` and `a.b`, before `a0`), and names whose UTF-8 byte order
// (the order readdir returns on Linux) is not their UTF-16 order (`\u{1F600}` against `\uE000`).
const FILES = [
  "a/x.txt",
  "a/y/z.txt",
  "a/y.txt",
  "a-b.txt",
  "a.b.txt",
  "a0.txt",
  "A.txt",
  "\uE000.txt",
  "\u{1F600}.txt",
  "\u{1F600}/in.txt",
  "z/\uE000/deep.txt",
  "z/\u{1F600}.txt",
];

let temp: TempWorkspace;
let root: string;
beforeEach(async () => {
  temp = await makeTempWorkspace();
  root = await realpath(temp.ws);
  for (const file of FILES) {
    const path = join(root, file);
    await mkdir(join(path, ".."), { recursive: true });
    await writeFile(path, "");
  }
});
afterEach(() => temp.cleanup());

describe.each<DirectoryListing>(["held", "by-path"])(
  "globWorkspace's order, listed %s",
  (listing) => {
    const glob = (pattern: string, limit = Number.MAX_SAFE_INTEGER) =>
      globWorkspace(root, GlobPattern.compile(pattern), limit, listing);

    it("lists whole paths in code-unit order, as the default sort would", async () => {
      const sorted = [...FILES].sort();
      // The tree is chosen so that this is not also the order of a per-name sort.
      expect(sorted.slice(0, 5)).toEqual(["A.txt", "a-b.txt", "a.b.txt", "a/x.txt", "a/y.txt"]);
      await expect(glob("**")).resolves.toEqual({ paths: sorted, omitted: 0 });
      await expect(glob("**/*.txt")).resolves.toEqual({ paths: sorted, omitted: 0 });
    });

    it("keeps the first matches in that order and counts the rest", async () => {
      await expect(glob("**", 4)).resolves.toEqual({
        paths: ["A.txt", "a-b.txt", "a.b.txt", "a/x.txt"],
        omitted: FILES.length - 4,
      });
      await expect(glob("**", 0)).resolves.toEqual({ paths: [], omitted: FILES.length });
      await expect(glob("z/**", 1)).resolves.toEqual({ paths: ["z/\u{1F600}.txt"], omitted: 1 });
    });
  },
);

describe.runIf(process.platform === "linux")(
  "globWorkspace, held, when the root is not where it was",
  () => {
    it("fails instead of answering that nothing matches", async () => {
      const alias = join(temp.evil, "alias");
      await symlink(root, alias);
      await expect(globWorkspace(alias, GlobPattern.compile("**"), 10, "held")).rejects.toThrow(
        `the workspace ${alias} was moved or replaced while glob listed it`,
      );
      // Listed by path, the same alias is followed: that walk is only for sandboxed runs.
      await expect(
        globWorkspace(alias, GlobPattern.compile("a0.txt"), 10, "by-path"),
      ).resolves.toEqual({
        paths: ["a0.txt"],
        omitted: 0,
      });
    });
  },
);
