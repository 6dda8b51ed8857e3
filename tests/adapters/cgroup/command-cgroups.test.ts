/**
 * The cgroup adapter against the real kernel: it needs a writable cgroup (root on a host or CI
 * machine with cgroup v1, or a delegated v2 subtree); elsewhere these tests are skipped and say why.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmdirSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CommandCgroups } from "../../../src/adapters/cgroup/index.js";
import { isGone } from "../../support/process-state.js";

/** This file's own parent: other harnesses on the machine (tests running beside) use theirs. */
const PARENT = `agent-harness-test-${randomBytes(4).toString("hex")}`;
const CGROUPS = new CommandCgroups({ parentName: PARENT });
const AVAILABILITY = CGROUPS.availability();
const SKIP_REASON = AVAILABILITY.ok
  ? ""
  : ` (skipped: no writable cgroup here: ${AVAILABILITY.reason})`;
const MIB = 1024 ** 2;

/** The pids hierarchy's own directory per this process's mountinfo, when it is v1 (CI's shape). */
function pidsOwnDirectory(): string | undefined {
  const mount = readFileSync("/proc/self/mountinfo", "utf8")
    .split("\n")
    .find((line) => / - cgroup cgroup \S*\bpids\b/.test(line));
  const own = readFileSync("/proc/self/cgroup", "utf8")
    .split("\n")
    .find((line) => /^\d+:pids:/.test(line));
  if (mount === undefined || own === undefined) return undefined;
  return join(mount.split(" ")[4] ?? "", own.replace(/^\d+:pids:/, ""));
}

describe.skipIf(!AVAILABILITY.ok)(`a cgroup per command${SKIP_REASON}`, () => {
  it("is made with its limits, holds what the entry argv starts, and is gone after remove", async () => {
    const cgroup = CGROUPS.create({ processes: 64, memory: 256 * MIB });
    expect(cgroup).toBeDefined();
    if (cgroup === undefined) return;
    for (const directory of cgroup.directories) {
      expect(directory).toMatch(new RegExp(`/${PARENT}/${String(process.pid)}-[0-9a-f]{8}-\\d+$`));
      const files = readdirSync(directory);
      if (files.includes("pids.max"))
        expect(readFileSync(join(directory, "pids.max"), "utf8")).toBe("64\n");
      for (const name of ["memory.limit_in_bytes", "memory.max"].filter((f) => files.includes(f))) {
        expect(readFileSync(join(directory, name), "utf8")).toBe(`${String(256 * MIB)}\n`);
      }
    }
    const [program, ...args] = [...cgroup.entryArgv("/bin/sh"), "/bin/cat", "/proc/self/cgroup"];
    const inside = execFileSync(program, args, { encoding: "utf8" });
    for (const directory of cgroup.directories) {
      const name = directory.slice(directory.lastIndexOf(`/${PARENT}/`));
      expect(inside).toContain(name);
    }
    expect(cgroup.evidence()).toMatchObject({ forkRefusals: 0, memoryFailures: 0 });
    await cgroup.remove();
    for (const directory of cgroup.directories) expect(existsSync(directory)).toBe(false);
  });

  it("removes the empty cgroups a dead harness left behind, and no one else's", async () => {
    const made = CGROUPS.create({ processes: 64, memory: undefined });
    if (made === undefined) throw new Error("no cgroup");
    const parent = dirname(made.directories[0] ?? "");
    await made.remove();
    // The last command's cgroup took the empty parent with it; a dead harness's would not.
    expect(existsSync(parent)).toBe(false);
    await mkdir(parent);
    const dead = spawnSync("/bin/true").pid;
    expect(isGone(dead)).toBe(true);
    const leftOver = join(parent, `${String(dead)}-0badf00d-3`);
    const living = join(parent, `${String(process.pid)}-0badf00d-3`);
    await mkdir(leftOver);
    await mkdir(living);
    try {
      expect(new CommandCgroups({ parentName: PARENT }).availability()).toEqual({ ok: true });
      expect(existsSync(leftOver)).toBe(false);
      expect(existsSync(living)).toBe(true);
    } finally {
      if (existsSync(living)) rmdirSync(living);
      if (existsSync(leftOver)) rmdirSync(leftOver);
      if (existsSync(parent) && readdirSync(parent).every((name) => !/^\d/.test(name))) {
        rmdirSync(parent);
      }
    }
  });

  it("kills what is left in it before removing it", async () => {
    const cgroup = CGROUPS.create({ processes: 64, memory: undefined });
    if (cgroup === undefined) throw new Error("no cgroup");
    const [program, ...args] = [
      ...cgroup.entryArgv("/bin/sh"),
      "/bin/sh",
      "-c",
      "sleep 600 >/dev/null 2>&1 & echo $!",
    ];
    const child = spawn(program, args, { stdio: ["ignore", "pipe", "ignore"] });
    const pid = Number(await new Promise<string>((resolve) => child.stdout.once("data", resolve)));
    expect(isGone(pid)).toBe(false);
    await cgroup.remove();
    expect(isGone(pid)).toBe(true);
    for (const directory of cgroup.directories) expect(existsSync(directory)).toBe(false);
  });

  it("counts forks refused at pids.max", async () => {
    const cgroup = CGROUPS.create({ processes: 16, memory: undefined });
    if (cgroup === undefined) throw new Error("no cgroup");
    const [program, ...args] = [
      ...cgroup.entryArgv("/bin/sh"),
      "/bin/sh",
      "-c",
      "for i in $(seq 40); do sleep 5 & done; exit 0",
    ];
    try {
      execFileSync(program, args, { stdio: "ignore" });
    } catch {
      // sh says it could not fork; the count is what is checked
    }
    expect(cgroup.evidence().forkRefusals).toBeGreaterThan(0);
    await cgroup.remove();
  });
});

/** Asked only where cgroups work: elsewhere (macOS, Windows) there is no /proc to read. */
const PIDS_V1 = AVAILABILITY.ok && pidsOwnDirectory() !== undefined;
const NO_PIDS_V1 =
  AVAILABILITY.ok && !PIDS_V1
    ? " (skipped: needs a cgroup v1 pids hierarchy; this host has none)"
    : "";

describe.skipIf(!AVAILABILITY.ok || !PIDS_V1)(
  `a planted symbolic link on the cgroup path is never followed${SKIP_REASON}${NO_PIDS_V1}`,
  () => {
    let base: string;
    beforeEach(async () => {
      base = await mkdtemp(join(await realpath(tmpdir()), "cgroup-link-"));
    });
    afterEach(async () => {
      await rm(base, { recursive: true, force: true });
    });

    function realParent(): string {
      return join(pidsOwnDirectory() ?? "", PARENT);
    }

    /** Everything of this process's in the real pids hierarchy's parent, to see nothing was made. */
    function ours(): string[] {
      const parent = realParent();
      return existsSync(parent)
        ? readdirSync(parent).filter((name) => name.startsWith(`${String(process.pid)}-`))
        : [];
    }

    it.each([
      ["the parent", PARENT, "/", (b: string) => `${b}/${PARENT} is a symbolic link`],
      ["a directory above it", "own", "/own", (b: string) => `${b}/own is a symbolic link`],
    ])(
      "at %s: cgroups unavailable (rlimits only), nothing made behind the link",
      async (_, link, self, reason) => {
        // A "mount" the test owns, whose link leads to the real, writable pids hierarchy: followed,
        // the adapter would work, so only the refusal makes this pass.
        const mountPoint = join(base, "pids");
        await mkdir(mountPoint);
        const target =
          link === PARENT ? join(pidsOwnDirectory() ?? "", PARENT) : (pidsOwnDirectory() ?? "");
        // The real parent may be gone (the last command removes it): make it, so the link leads on.
        const madeParent = !existsSync(realParent());
        if (madeParent) await mkdir(realParent());
        await symlink(target, join(mountPoint, link));
        try {
          const before = ours();
          const cgroups = new CommandCgroups({
            parentName: PARENT,
            mountinfo: `39 31 0:36 / ${mountPoint} rw,relatime - cgroup cgroup rw,pids`,
            selfCgroup: `8:pids:${self}`,
          });
          expect(cgroups.availability()).toEqual({ ok: false, reason: reason(mountPoint) });
          expect(cgroups.create({ processes: 64, memory: undefined })).toBeUndefined();
          expect(ours()).toEqual(before);
        } finally {
          if (madeParent) rmdirSync(realParent());
        }
      },
    );
  },
);
