/**
 * dist/agent.cjs starts the bundle through V8's code cache: the first run leaves a cache beside
 * the bundle, later runs use it, and a cache that does not fit (corrupt, another node, another
 * bundle) is never a reason to fail and never runs. The cache is opened and written like the
 * harness's own files: a link or a FIFO planted at its name, or at any temporary name, redirects
 * nothing and blocks nothing. Thousands of planted links and a rebuild in a copied clone: in the
 * slow project; every fast end-to-end test starts the CLI through this launcher. zod's file, which
 * the bundle requires at its first tool call, has a cache of its own under the same rules.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, statSync } from "node:fs";
import {
  appendFile,
  chmod,
  chown,
  copyFile,
  cp,
  mkdir,
  readdir,
  readFile,
  link,
  rm,
  stat,
  symlink,
  utimes,
  writeFile,
} from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempWorkspace, type TempWorkspace } from "../support/workspace.js";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const CACHE = "agent-bundle.cache";

let dir: TempWorkspace;
let dist: string;

async function copyPackage(root: string): Promise<string> {
  const target = join(root, "dist");
  await mkdir(target, { recursive: true });
  await copyFile(join(REPO, "package.json"), join(root, "package.json"));
  for (const name of ["agent.cjs", "agent-bundle.cjs"]) {
    await copyFile(join(REPO, "dist", name), join(target, name));
  }
  return target;
}

beforeEach(async () => {
  dir = await makeTempWorkspace("agent-launcher-");
  dist = await copyPackage(join(dir.root, "package"));
});
afterEach(async () => {
  await dir.cleanup();
});

function version(directory = dist): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [join(directory, "agent.cjs"), "--version"], {
    encoding: "utf8",
    // A FIFO the launcher waited on would hang the run: a few seconds is far more than a start.
    timeout: 10_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

async function caches(): Promise<string[]> {
  return (await readdir(dist)).filter((name) => name.endsWith(".cache"));
}

async function sha256(file: string): Promise<Buffer> {
  return createHash("sha256")
    .update(await readFile(file))
    .digest();
}

/** The name the launcher before this fix gave the cache: the bundle's size and time. */
async function oldCacheName(): Promise<string> {
  const { size, mtimeMs } = await stat(join(dist, "agent-bundle.cjs"));
  return `agent-bundle.${size}-${Math.trunc(mtimeMs)}.cache`;
}

describe("the agent command's code cache", () => {
  it("is written by the first run, bound to the bundle's bytes, and used by the next", async () => {
    const first = version();
    expect(first).toMatchObject({ status: 0, stderr: "" });
    expect(await caches()).toEqual([CACHE]);
    const cache = await readFile(join(dist, CACHE));
    expect(cache.subarray(0, 32)).toEqual(await sha256(join(dist, "agent-bundle.cjs")));
    expect(version()).toEqual(first);
    // Used, not rewritten: the same bytes, still the only cache, no temporary file left.
    expect(await readFile(join(dist, CACHE))).toEqual(cache);
    expect((await readdir(dist)).sort()).toEqual([CACHE, "agent-bundle.cjs", "agent.cjs"]);
  });

  it("starts the agent when required rather than run (a process manager's fork mode)", () => {
    const script = `process.argv.splice(1, 0, "agent"); process.argv.push("--version"); require(${JSON.stringify(join(dist, "agent.cjs"))});`;
    const run = spawnSync(process.execPath, ["-e", script], { encoding: "utf8", timeout: 10_000 });
    expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual(version());
    expect(run.stdout).toBe("0.1.0\n");
  });

  it("survives a corrupt cache: the bundle is compiled as usual", async () => {
    version();
    await writeFile(join(dist, CACHE), "not a V8 code cache");
    const run = version();
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
  });

  it("runs where the cache cannot be written, and leaves nothing behind", async () => {
    // A directory where the cache would go: reading and replacing it both fail, as in a
    // read-only install (which root, running these tests, could still write to).
    await mkdir(join(dist, CACHE));
    const run = version();
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
    expect((await readdir(dist)).sort()).toEqual([CACHE, "agent-bundle.cjs", "agent.cjs"].sort());
  });

  it("never runs a cache compiled from another bundle of the same length", async () => {
    // A forged bundle as long as the real one (in UTF-16 units): V8 checks only the length, so
    // its cache would run the forged code in place of the real bundle's.
    const marker = join(dir.outside, "forged-ran");
    const bundle = await readFile(join(dist, "agent-bundle.cjs"), "utf8");
    const payload = `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "host");`;
    const forgedDist = await copyPackage(join(dir.root, "forged"));
    await writeFile(
      join(forgedDist, "agent-bundle.cjs"),
      payload + " ".repeat(bundle.length - payload.length),
    );
    version(forgedDist);
    const forgedCaches = (await readdir(forgedDist)).filter((name) => name.endsWith(".cache"));
    expect(forgedCaches).toHaveLength(1);
    const forged = join(forgedDist, forgedCaches[0] ?? "missing");
    expect(existsSync(marker)).toBe(true);
    await rm(marker);
    // Copied over the real bundle's cache, under today's name and the name it had before.
    for (const name of [CACHE, await oldCacheName()]) await copyFile(forged, join(dist, name));

    const run = version();

    expect(run).toMatchObject({ status: 0, stdout: "0.1.0\n", stderr: "" });
    expect(existsSync(marker)).toBe(false);
  });

  it.skipIf(process.platform === "win32")(
    "a link or FIFO at the cache name or at any temporary name redirects and blocks nothing",
    async () => {
      const victim = join(dir.outside, "victim");
      await writeFile(victim, "host file\n");
      const oldName = await oldCacheName();
      // Every temporary name a predictable scheme could pick: `<cache>.<pid>.tmp` for the pids
      // the next processes are likely to get.
      const next = spawnSync("sh", ["-c", "echo $$"], { encoding: "utf8" });
      const pid = Number(next.stdout.trim());
      for (let candidate = pid; candidate < pid + 3000; candidate += 1) {
        for (const name of [CACHE, oldName]) {
          await symlink(victim, join(dist, `${name}.${candidate}.tmp`));
        }
      }
      await symlink(victim, join(dist, CACHE));
      await symlink(victim, join(dist, oldName));

      const throughLinks = version();
      expect(throughLinks).toMatchObject({ status: 0, stdout: "0.1.0\n", stderr: "" });
      expect(await readFile(victim, "utf8")).toBe("host file\n");

      // FIFOs in the links' place: opened without waiting, refused, replaced.
      execFileSync("rm", ["-f", join(dist, CACHE), join(dist, oldName)]);
      execFileSync("mkfifo", [join(dist, CACHE), join(dist, oldName)]);
      // A launcher that waited on a FIFO would be killed by version()'s timeout: status null.
      const throughFifos = version();
      expect(throughFifos).toMatchObject({ status: 0, stdout: "0.1.0\n", stderr: "" });
      expect(await readFile(victim, "utf8")).toBe("host file\n");
      // The FIFO at the cache name was replaced by a real cache, through rename, not written to.
      expect(lstatSync(join(dist, CACHE)).isFile()).toBe(true);
    },
  );
});

const ZOD_CACHE = "agent-zod.cache";

/** The package with zod's file, and a settings file: `agent config` then loads zod to check it. */
async function copyPackageWithZod(root: string): Promise<string> {
  const target = await copyPackage(root);
  await copyFile(join(REPO, "dist", "agent-zod.cjs"), join(target, "agent-zod.cjs"));
  return target;
}

async function settingsHome(): Promise<string> {
  const home = join(dir.root, "config");
  await mkdir(join(home, "agent-harness"), { recursive: true });
  await writeFile(join(home, "agent-harness", "settings.json"), '{"model":"from-file"}\n');
  return home;
}

/** `agent config` with a settings file: its schema is zod's, so the run requires zod's file. */
function config(directory: string, home: string): { status: number | null; stdout: string } {
  const run = spawnSync(process.execPath, [join(directory, "agent.cjs"), "config"], {
    encoding: "utf8",
    env: { ...process.env, XDG_CONFIG_HOME: home },
    timeout: 10_000,
  });
  return { status: run.status, stdout: run.stdout };
}

/** `agent config` succeeded and read the settings file, through zod's schema. */
function expectFromFile(run: { status: number | null; stdout: string }): void {
  expect(run.status).toBe(0);
  expect(run.stdout).toContain("model           from-file  (settings file)\n");
}

describe("zod's code cache", () => {
  let zodDist: string;
  let home: string;
  const zodCache = (): string => join(zodDist, ZOD_CACHE);

  beforeEach(async () => {
    zodDist = await copyPackageWithZod(join(dir.root, "with-zod"));
    home = await settingsHome();
  });

  it("is written by the first run that loads zod, bound to zod's bytes, and used by the next", async () => {
    expect(version(zodDist)).toMatchObject({ status: 0, stderr: "" });
    // A run that never needs zod leaves no cache of it.
    expect(existsSync(zodCache())).toBe(false);
    const first = config(zodDist, home);
    expectFromFile(first);
    const cache = await readFile(zodCache());
    expect(cache.subarray(0, 32)).toEqual(await sha256(join(zodDist, "agent-zod.cjs")));
    const { ino } = lstatSync(zodCache());
    expect(config(zodDist, home)).toEqual(first);
    // Used, not rewritten: the same file, no temporary file left.
    expect(lstatSync(zodCache()).ino).toBe(ino);
    expect(await readFile(zodCache())).toEqual(cache);
    expect((await readdir(zodDist)).sort()).toEqual(
      [CACHE, ZOD_CACHE, "agent-bundle.cjs", "agent-zod.cjs", "agent.cjs"].sort(),
    );
  });

  it("never runs a cache compiled from another zod file of the same length", async () => {
    const marker = join(dir.outside, "forged-zod-ran");
    const zod = await readFile(join(zodDist, "agent-zod.cjs"), "utf8");
    const payload = `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "host");`;
    const forgedDist = await copyPackageWithZod(join(dir.root, "forged-zod"));
    await writeFile(
      join(forgedDist, "agent-zod.cjs"),
      payload + " ".repeat(zod.length - payload.length),
    );
    // The forged file exports no zod: that run fails, but its cache is written at exit.
    config(forgedDist, home);
    expect(existsSync(marker)).toBe(true);
    await rm(marker);
    await copyFile(join(forgedDist, ZOD_CACHE), zodCache());

    expectFromFile(config(zodDist, home));
    expect(existsSync(marker)).toBe(false);
    // Refused, so replaced by one for the real bytes.
    expect((await readFile(zodCache())).subarray(0, 32)).toEqual(
      await sha256(join(zodDist, "agent-zod.cjs")),
    );
  });

  it("ignores a cache that others could write or that has a second name, and replaces it", async () => {
    config(zodDist, home);
    const real = await readFile(zodCache());
    for (const plant of [
      async () => {
        await writeFile(zodCache(), real, { mode: 0o664 });
        await chmod(zodCache(), 0o664);
      },
      async () => {
        await writeFile(zodCache(), real, { mode: 0o644 });
        await link(zodCache(), join(dir.outside, "second-name"));
      },
    ]) {
      await rm(zodCache(), { force: true });
      await rm(join(dir.outside, "second-name"), { force: true });
      await plant();
      const planted = lstatSync(zodCache()).ino;

      expectFromFile(config(zodDist, home));
      // Not used: compiled from source and a new cache renamed into place, mode 0644, one link.
      const now = lstatSync(zodCache());
      expect(now.ino).not.toBe(planted);
      expect(now.nlink).toBe(1);
      expect(now.mode & 0o777).toBe(0o644);
    }
    // The second name still holds what was planted there: nothing was written through it.
    expect(await readFile(join(dir.outside, "second-name"))).toEqual(real);
  });

  it.skipIf(process.platform === "win32" || process.getuid?.() !== 0)(
    "ignores a cache owned by someone other than zod's file's owner",
    async () => {
      config(zodDist, home);
      await chown(zodCache(), 4242, 4242);
      const planted = lstatSync(zodCache()).ino;
      expectFromFile(config(zodDist, home));
      expect(lstatSync(zodCache())).toMatchObject({ uid: process.getuid?.() });
      expect(lstatSync(zodCache()).ino).not.toBe(planted);
    },
  );

  it.skipIf(process.platform === "win32")(
    "a link or FIFO at zod's cache name redirects and blocks nothing",
    async () => {
      const victim = join(dir.outside, "victim");
      await writeFile(victim, "host file\n");
      await symlink(victim, zodCache());
      expectFromFile(config(zodDist, home));
      expect(await readFile(victim, "utf8")).toBe("host file\n");
      expect(lstatSync(zodCache()).isFile()).toBe(true);

      await rm(zodCache());
      execFileSync("mkfifo", [zodCache()]);
      // A launcher that waited on the FIFO would be killed by the timeout: status null.
      expectFromFile(config(zodDist, home));
      expect(lstatSync(zodCache()).isFile()).toBe(true);
    },
  );

  it.skipIf(process.platform === "win32")(
    "a zod file that is a link is loaded by node as before, with no cache",
    async () => {
      const elsewhere = join(dir.outside, "agent-zod.cjs");
      await copyFile(join(zodDist, "agent-zod.cjs"), elsewhere);
      await rm(join(zodDist, "agent-zod.cjs"));
      await symlink(elsewhere, join(zodDist, "agent-zod.cjs"));

      expectFromFile(config(zodDist, home));
      expect(existsSync(zodCache())).toBe(false);
    },
  );
});

describe("the build's seeded code caches (scripts/seed-code-cache.js)", () => {
  it("are written by one local scripted run that reads none of the builder's settings", async () => {
    const seeded = await copyPackageWithZod(join(dir.root, "seeded"));
    // The builder's own settings (here unreadable as settings) and model would fail the run.
    const home = join(dir.root, "builder");
    await mkdir(join(home, "agent-harness"), { recursive: true });
    await writeFile(join(home, "agent-harness", "settings.json"), "not json\n");
    const saved = { ...process.env };
    process.env.XDG_CONFIG_HOME = home;
    process.env.OPENAI_BASE_URL = "http://127.0.0.1:9/v1";
    process.env.AGENT_MODEL = "no-such-model";
    try {
      // scripts/ is plain JavaScript, outside the type-checked sources: loaded by its URL.
      const script = new URL("../../scripts/seed-code-cache.js", import.meta.url).href;
      const { seedCodeCache } = (await import(script)) as {
        seedCodeCache: (launcher: string) => Promise<boolean>;
      };
      expect(await seedCodeCache(join(seeded, "agent.cjs"))).toBe(true);
    } finally {
      process.env = saved;
    }
    for (const [cache, source] of [
      [CACHE, "agent-bundle.cjs"],
      [ZOD_CACHE, "agent-zod.cjs"],
    ] as const) {
      const bytes = await readFile(join(seeded, cache));
      expect(bytes.subarray(0, 32)).toEqual(await sha256(join(seeded, source)));
    }
    // Used by the next run, not rewritten; nothing else left in dist.
    const { ino } = lstatSync(join(seeded, CACHE));
    expect(version(seeded)).toMatchObject({ status: 0, stdout: "0.1.0\n", stderr: "" });
    expect(lstatSync(join(seeded, CACHE)).ino).toBe(ino);
    expect((await readdir(seeded)).sort()).toEqual(
      [CACHE, ZOD_CACHE, "agent-bundle.cjs", "agent-zod.cjs", "agent.cjs"].sort(),
    );
  });
});

/** A clone of the sources (node_modules linked), and `npm run agent --version` run in it. */
async function cloneForNpmRunAgent() {
  const clone = join(dir.root, "clone");
  await mkdir(clone);
  for (const name of ["package.json", "package-lock.json", "tsconfig.json"]) {
    await copyFile(join(REPO, name), join(clone, name));
  }
  for (const name of ["src", "scripts"]) {
    await cp(join(REPO, name), join(clone, name), { recursive: true });
  }
  await symlink(join(REPO, "node_modules"), join(clone, "node_modules"));
  const npmRunAgent = () =>
    spawnSync(process.execPath, [join(clone, "scripts", "agent.cjs"), "--version"], {
      cwd: clone,
      encoding: "utf8",
      timeout: 60_000,
    });
  return { clone, npmRunAgent };
}

describe("npm run agent (scripts/agent.cjs) in a clone", () => {
  it.skipIf(process.platform === "win32")(
    "rebuilds instead of running a bundle changed after its build, writing nothing through links",
    async () => {
      const { clone, npmRunAgent } = await cloneForNpmRunAgent();
      const built = npmRunAgent();
      expect(built).toMatchObject({ status: 0, stdout: "0.1.0\n" });
      const bundle = join(clone, "dist", "agent-bundle.cjs");
      const original = await readFile(bundle, "utf8");

      // What an approved command could do in a clone that is its workspace with the sandbox off.
      const marker = join(dir.outside, "appended-ran");
      await appendFile(
        bundle,
        `\nrequire("node:fs").writeFileSync(${JSON.stringify(marker)}, "host");\n`,
      );
      const victim = join(dir.outside, "victim");
      await writeFile(victim, "host file\n");
      const next = Number(spawnSync("sh", ["-c", "echo $$"], { encoding: "utf8" }).stdout.trim());
      for (let pid = next; pid < next + 3000; pid += 1) {
        for (const name of ["agent-bundle.cjs", "agent.cjs"]) {
          await symlink(victim, join(clone, "dist", `${name}.${pid}.tmp`));
        }
      }

      const run = npmRunAgent();

      expect(run.status).toBe(0);
      expect(run.stdout).toBe("0.1.0\n");
      expect(run.stderr).toMatch(
        /^agent: dist\/agent-bundle\.cjs differs from its build, rebuilt dist\/agent\.cjs in \d+ ms\n$/,
      );
      expect(existsSync(marker)).toBe(false);
      expect(await readFile(bundle, "utf8")).toBe(original);
      expect(await readFile(victim, "utf8")).toBe("host file\n");
    },
  );

  it("rebuilds when a file deep in src/ is newer than the bundle", async () => {
    const { clone, npmRunAgent } = await cloneForNpmRunAgent();
    expect(npmRunAgent()).toMatchObject({ status: 0, stdout: "0.1.0\n" });
    const bundleTime = statSync(join(clone, "dist", "agent-bundle.cjs")).mtime;
    const later = new Date(bundleTime.getTime() + 60_000);
    await utimes(join(clone, "src", "adapters", "model", "openai-chat.ts"), later, later);

    const run = npmRunAgent();

    expect(run).toMatchObject({ status: 0, stdout: "0.1.0\n" });
    expect(run.stderr).toMatch(/^agent: sources changed, rebuilt dist\/agent\.cjs in \d+ ms\n$/);
  });

  it("rebuilds instead of running a zod file changed after its build", async () => {
    const { clone, npmRunAgent } = await cloneForNpmRunAgent();
    expect(npmRunAgent()).toMatchObject({ status: 0, stdout: "0.1.0\n" });
    const zod = join(clone, "dist", "agent-zod.cjs");
    const original = await readFile(zod, "utf8");
    await appendFile(zod, `\nrequire("node:fs").writeFileSync("/dev/null", "changed");\n`);

    const run = npmRunAgent();

    expect(run).toMatchObject({ status: 0, stdout: "0.1.0\n" });
    expect(run.stderr).toMatch(
      /^agent: dist\/agent-zod\.cjs differs from its build, rebuilt dist\/agent\.cjs in \d+ ms\n$/,
    );
    expect(await readFile(zod, "utf8")).toBe(original);
    expect(npmRunAgent()).toEqual(expect.objectContaining({ status: 0, stderr: "" }));
  });
});
