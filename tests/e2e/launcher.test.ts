/**
 * dist/agent.cjs starts the bundle through V8's code cache: the first run leaves a cache beside
 * the bundle, later runs use it, and a cache that does not fit (corrupt, another node, a rebuilt
 * bundle) is never a reason to fail.
 */
import { spawnSync } from "node:child_process";
import { copyFile, mkdir, readdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempWorkspace, type TempWorkspace } from "../support/workspace.js";

const REPO = fileURLToPath(new URL("../..", import.meta.url));

let dir: TempWorkspace;
let dist: string;

beforeEach(async () => {
  dir = await makeTempWorkspace("agent-launcher-");
  dist = join(dir.root, "package", "dist");
  await mkdir(dist, { recursive: true });
  await copyFile(join(REPO, "package.json"), join(dir.root, "package", "package.json"));
  for (const name of ["agent.cjs", "agent-bundle.cjs"]) {
    await copyFile(join(REPO, "dist", name), join(dist, name));
  }
});
afterEach(async () => {
  await dir.cleanup();
});

function version(): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [join(dist, "agent.cjs"), "--version"], {
    encoding: "utf8",
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

async function caches(): Promise<string[]> {
  return (await readdir(dist)).filter((name) => name.endsWith(".cache"));
}

describe("the agent command's code cache", () => {
  it("is written by the first run, named for the bundle, and used by the next", async () => {
    const first = version();
    expect(first.status).toBe(0);
    const written = await caches();
    expect(written).toEqual([expect.stringMatching(/^agent-bundle\.\d+-\d+\.cache$/)]);
    expect(version()).toEqual(first);
    expect(await caches()).toEqual(written);
  });

  it("survives a corrupt cache: the bundle is compiled as usual", async () => {
    version();
    const [cache] = await caches();
    await writeFile(join(dist, cache ?? "missing"), "not a V8 code cache");
    const run = version();
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
  });

  it("runs where the cache cannot be written, and leaves nothing behind", async () => {
    const { size, mtimeMs } = await stat(join(dist, "agent-bundle.cjs"));
    // A directory where the cache would go: reading and replacing it both fail, as in a
    // read-only install (which root, running these tests, could still write to).
    const blocked = `agent-bundle.${size}-${Math.trunc(mtimeMs)}.cache`;
    await mkdir(join(dist, blocked));
    const run = version();
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
    expect((await readdir(dist)).sort()).toEqual([blocked, "agent-bundle.cjs", "agent.cjs"].sort());
  });
});
