/**
 * The write boundary keeps each repository's git delegation scan between decisions (issue 32).
 * What it keeps must never outlive a change: a command run between two decisions may change
 * `.git/config`, an included file, the global config or the hooks, or plant a link where a
 * named path was. The clock is injected so that every file counts as long settled and the cache
 * really keeps its scans; the boundary's own test at the end uses the real clock.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { mkdir, rename, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  GitDelegationCache,
  RACY_MARGIN_MS,
  settledBefore,
} from "../../../src/adapters/filesystem/git-delegation-cache.js";
import { namedDelegatedPaths } from "../../../src/adapters/filesystem/git-delegated-paths.js";
import { NodeWorkspaceWriteBoundary } from "../../../src/adapters/filesystem/node-filesystem.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/temp-workspace.js";
import { initIsolatedRepository } from "../../support/isolated-git.js";

let temp: TempWorkspace;
let scans: number;
let cache: GitDelegationCache;

function git(...args: string[]): void {
  execFileSync("git", ["-C", temp.ws, ...args], { stdio: "ignore" });
}

/** Every file was written long before "now": only a changed fingerprint can make it rescan. */
function settledCache(): GitDelegationCache {
  return new GitDelegationCache({
    now: () => Date.now() + 10 * RACY_MARGIN_MS,
    scan: (...args) => {
      scans += 1;
      return namedDelegatedPaths(...args);
    },
  });
}

/** Whether a write to `path` (workspace-relative) falls under a delegated path, and why. */
function delegation(path: string): string | undefined {
  const target = join(temp.ws, path);
  return cache
    .around(temp.ws)
    .find((found) => target === found.path || target.startsWith(`${found.path}/`))?.why;
}

/**
 * Rewrites `file` in place with `text` of the same length until its change time moves on: a
 * change in the same clock tick is the racy case the margin covers, not what this test asks.
 */
function rewriteInPlace(file: string, text: string): void {
  expect(text.length).toBe(readFileSync(file, "utf8").length);
  const before = statSync(file).ctimeMs;
  do writeFileSync(file, text);
  while (statSync(file).ctimeMs === before);
}

beforeEach(async () => {
  temp = await makeTempWorkspace();
  initIsolatedRepository(temp.base, temp.ws);
  scans = 0;
  cache = settledCache();
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await temp.cleanup();
});

describe("GitDelegationCache keeps a scan only while its files are unchanged", () => {
  it("scans once while nothing changes, and not at all outside a repository", async () => {
    git("config", "core.hooksPath", "hooks-a");
    expect(delegation("hooks-a/pre-commit")).toMatch(/^core\.hooksPath in /u);
    expect(delegation("hooks-a/pre-push")).toMatch(/^core\.hooksPath in /u);
    expect(delegation("src/index.ts")).toBeUndefined();
    expect(scans).toBe(1);

    await mkdir(join(temp.base, "plain"));
    expect(cache.around(join(temp.base, "plain"))).toEqual([]);
    expect(scans).toBe(1);
  });

  it("notices .git/config rewritten in place, same size", () => {
    const config = join(temp.ws, ".git", "config");
    git("config", "core.hooksPath", "hooks-a");
    expect(delegation("hooks-b/pre-commit")).toBeUndefined();

    rewriteInPlace(config, readFileSync(config, "utf8").replace("hooks-a", "hooks-b"));
    expect(delegation("hooks-b/pre-commit")).toMatch(/^core\.hooksPath in /u);
    expect(delegation("hooks-a/pre-commit")).toBeUndefined();
    expect(scans).toBe(2);
  });

  it("notices git's own write (a lock file renamed over the config)", () => {
    git("config", "core.hooksPath", "hooks-a");
    expect(delegation("hooks-b/x")).toBeUndefined();
    git("config", "core.hooksPath", "hooks-b");
    expect(delegation("hooks-b/x")).toMatch(/^core\.hooksPath in /u);
  });

  it("notices an included file that changed, and one that appeared", async () => {
    git("config", "include.path", "../shared.gitconfig");
    const shared = join(temp.ws, "shared.gitconfig");
    expect(delegation("tools/watch")).toBeUndefined();

    await writeFile(shared, "[core]\n\tfsmonitor = tools/watch\n");
    expect(delegation("tools/watch")).toMatch(/^core\.fsmonitor in /u);

    rewriteInPlace(shared, "[core]\n\tfsmonitor = tools/waver\n");
    expect(delegation("tools/watch")).toBeUndefined();
    expect(delegation("tools/waver")).toMatch(/^core\.fsmonitor in /u);
  });

  it("notices the global config appearing, and a link to it repointed", async () => {
    expect(delegation(".githooks/pre-push")).toBeUndefined();
    const real = join(temp.base, "dotfiles-a");
    await writeFile(real, "[core]\n\thooksPath = .githooks\n");
    await symlink(real, join(temp.base, "global.gitconfig"));
    expect(delegation(".githooks/pre-push")).toMatch(/^core\.hooksPath in /u);

    // Same size, other file: only the link's target differs.
    await writeFile(join(temp.base, "dotfiles-b"), "[core]\n\thooksPath = .gitnooks\n");
    await symlink(join(temp.base, "dotfiles-b"), join(temp.base, "next-link"));
    await rename(join(temp.base, "next-link"), join(temp.base, "global.gitconfig"));
    expect(delegation(".githooks/pre-push")).toBeUndefined();
    expect(delegation(".gitnooks/pre-push")).toMatch(/^core\.hooksPath in /u);
  });

  it("notices a hook manager's shim installed in the hooks directory", async () => {
    expect(delegation("lefthook-local.yml")).toBeUndefined();
    await writeFile(
      join(temp.ws, ".git", "hooks", "pre-commit"),
      '#!/bin/sh\ncall_lefthook run "pre-commit" "$@"\n',
    );
    expect(delegation("lefthook-local.yml")).toMatch(/^lefthook's config/u);
  });

  it("resolves the named paths at every call: a link planted since moves them", async () => {
    git("config", "core.fsmonitor", "tools/watch");
    await mkdir(join(temp.ws, "elsewhere"));
    expect(delegation("elsewhere/watch")).toBeUndefined();
    // `tools` is no file the scan reads: the kept scan stands, its path is resolved anew.
    await symlink(join(temp.ws, "elsewhere"), join(temp.ws, "tools"));
    expect(delegation("elsewhere/watch")).toMatch(/^core\.fsmonitor in /u);
    expect(scans).toBe(1);
  });

  it("scans again at every call while a file changed within the margin", () => {
    git("config", "core.hooksPath", "hooks-a");
    const changed = statSync(join(temp.ws, ".git", "config")).ctimeMs;
    cache = new GitDelegationCache({
      now: () => changed + RACY_MARGIN_MS / 2,
      scan: (...args) => {
        scans += 1;
        return namedDelegatedPaths(...args);
      },
    });
    delegation("x");
    delegation("x");
    expect(scans).toBe(2);
  });

  it("counts a change as settled only before the margin", () => {
    const at = (changedAt: number) => ({ text: "", changedAt });
    expect(settledBefore(at(10_000 - RACY_MARGIN_MS - 1), 10_000)).toBe(true);
    expect(settledBefore(at(10_000 - RACY_MARGIN_MS), 10_000)).toBe(false);
    expect(settledBefore(at(-Infinity), 10_000)).toBe(true);
  });
});

describe("NodeWorkspaceWriteBoundary, one boundary across decisions", () => {
  it("refuses a path that became a hooks directory since the last decision", async () => {
    const boundary = new NodeWorkspaceWriteBoundary();
    await expect(boundary.classifyWrite(temp.ws, "githooks/pre-commit")).resolves.toBe("inside");
    git("config", "core.hooksPath", "githooks");
    await expect(boundary.classifyWrite(temp.ws, "githooks/pre-commit")).resolves.toBe(
      "git-metadata",
    );
    git("config", "--unset", "core.hooksPath");
    await expect(boundary.classifyWrite(temp.ws, "githooks/pre-commit")).resolves.toBe("inside");
  });
});
