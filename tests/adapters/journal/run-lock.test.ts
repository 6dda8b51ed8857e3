/**
 * The run lock against what it did not make: a lock name that is not a regular file, a holder's
 * pid that now names another process (or a zombie), and drafts and claims left by processes that
 * were killed midway.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isAlive, lockRun, RunLockedError } from "../../../src/adapters/journal/index.js";
import { scratchDirectories } from "../../support/scratch-directories.js";

const LOCK_MODULE = new URL("../../../src/adapters/journal/index.ts", import.meta.url).pathname;
/** No live process has this pid here. */
const DEAD_PID = 2 ** 22 + 1;
const linux = process.platform === "linux";

const directory = scratchDirectories("run-lock-");

/**
 * lockRun in a child process, so that a lock that blocks forever fails the test (after 10 s)
 * instead of hanging the test worker. Returns what the child printed.
 */
function lockInChild(path: string): string {
  const script = `
    import { lockRun } from ${JSON.stringify(LOCK_MODULE)};
    try { lockRun(${JSON.stringify(path)}); console.log("locked"); }
    catch (error) { console.log(error.name + ": " + error.message); }
  `;
  const child = spawnSync(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", script],
    { encoding: "utf8", timeout: 10_000 },
  );
  if (child.error !== undefined) return `failed: ${child.error.message}`;
  return child.stdout.trim();
}

/** `/proc/<pid>/stat`'s start time (clock ticks since boot), field 22. */
function startTicks(pid: number): string {
  const stat = readFileSync(`/proc/${String(pid)}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? "";
}

function bootId(): string {
  return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
}

describe("lockRun and a lock name that is not a regular file", () => {
  it.runIf(process.platform !== "win32")(
    "refuses a FIFO at the lock's name at once instead of blocking on it",
    () => {
      const lock = join(directory(), "fifo.lock");
      execFileSync("mkfifo", [lock]);
      expect(lockInChild(lock)).toBe(
        `RunLockedError: ${lock} is not a lock file (it is a FIFO); remove it by hand`,
      );
    },
    20_000,
  );

  it.runIf(process.platform !== "win32")(
    "does not read through a symbolic link at the lock's name, even to a FIFO",
    () => {
      const dir = directory();
      const fifo = join(dir, "elsewhere");
      execFileSync("mkfifo", [fifo]);
      const lock = join(dir, "link.lock");
      symlinkSync(fifo, lock);
      expect(lockInChild(lock)).toBe(
        `RunLockedError: ${lock} is not a lock file (it is a symbolic link); remove it by hand`,
      );
    },
    20_000,
  );

  it("refuses a symbolic link to a dead holder's lock and a directory, leaving both", () => {
    const dir = directory();
    const target = join(dir, "target");
    writeFileSync(target, `${String(DEAD_PID)} 00112233445566778899\n`);
    const link = join(dir, "link.lock");
    symlinkSync(target, link);
    expect(() => lockRun(link)).toThrow(RunLockedError);
    expect(readFileSync(target, "utf8")).toBe(`${String(DEAD_PID)} 00112233445566778899\n`);
    const folder = join(dir, "folder.lock");
    mkdirSync(folder);
    expect(() => lockRun(folder)).toThrow(
      new RunLockedError(`${folder} is not a lock file (it is a directory); remove it by hand`),
    );
    expect(readdirSync(dir).sort()).toEqual(["folder.lock", "link.lock", "target"]);
  });

  it("refuses a file over 512 bytes at the lock's name, leaving it", () => {
    const lock = join(directory(), "big.lock");
    writeFileSync(lock, `${String(DEAD_PID)} ${"0".repeat(600)}\n`);
    expect(() => lockRun(lock)).toThrow(
      new RunLockedError(`${lock} is not a lock file (it is over 512 bytes); remove it by hand`),
    );
    expect(existsSync(lock)).toBe(true);
  });
});

describe("lockRun when the holder's pid now names something else", () => {
  it.runIf(linux)("writes the holder's start (boot id and start time) after pid and nonce", () => {
    const lock = join(directory(), "r.lock");
    const held = lockRun(lock);
    expect(readFileSync(lock, "utf8")).toBe(
      `${String(process.pid)} ${readFileSync(lock, "utf8").split(" ")[1] ?? ""} ${bootId()}:${startTicks(process.pid)}\n`,
    );
    held.release();
  });

  it.runIf(linux)(
    "takes over a lock whose pid was reused by another live process, and refuses the same pid with its own start",
    () => {
      const dir = directory();
      const reused = join(dir, "reused.lock");
      // This process is alive, but it is not the one that made the lock: that one started earlier.
      writeFileSync(reused, `${String(process.pid)} 00112233445566778899 ${bootId()}:1\n`);
      lockRun(reused, process.pid + 1).release();
      expect(existsSync(reused)).toBe(false);
      // A lock from before a reboot: another boot id.
      const rebooted = join(dir, "rebooted.lock");
      writeFileSync(
        rebooted,
        `${String(process.pid)} 00112233445566778899 00000000-0000-0000-0000-000000000000:${startTicks(process.pid)}\n`,
      );
      lockRun(rebooted, process.pid + 1).release();
      // The very process: refused.
      const live = join(dir, "live.lock");
      const content = `${String(process.pid)} 00112233445566778899 ${bootId()}:${startTicks(process.pid)}\n`;
      writeFileSync(live, content);
      expect(() => lockRun(live, process.pid + 1)).toThrow(RunLockedError);
      expect(readFileSync(live, "utf8")).toBe(content);
    },
  );

  it.runIf(linux)(
    "takes over a lock whose holder was killed but not yet reaped (a zombie)",
    async () => {
      // The shell starts a short sleep in the background, prints its pid and becomes a long
      // sleep, which never reaps it: once the short one ends it stays a zombie.
      const parent = spawn("sh", ["-c", "sleep 0.3 & echo $!; exec sleep 30"], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      try {
        const zombie = await new Promise<number>((resolve) => {
          parent.stdout.setEncoding("utf8").once("data", (text: string) => {
            resolve(Number(text.trim()));
          });
        });
        // Wait until it has exited (its state turns to Z).
        for (let tries = 0; tries < 500; tries += 1) {
          const stat = readFileSync(`/proc/${String(zombie)}/stat`, "utf8");
          if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) break;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        expect(isAlive(zombie)).toBe(false);
        const lock = join(directory(), "zombie.lock");
        writeFileSync(lock, `${String(zombie)} 00112233445566778899\n`);
        lockRun(lock).release();
        expect(existsSync(lock)).toBe(false);
      } finally {
        parent.kill("SIGKILL");
      }
    },
  );
});

describe("lockRun cleans up after contenders that were killed", () => {
  it("on taking the lock, removes claims on locks that are gone and drafts of dead processes, and nothing else", () => {
    const dir = directory();
    const lock = join(dir, "r.lock");
    writeFileSync(lock, `${String(DEAD_PID)} 00112233445566778899\n`);
    const stale = {
      // Claims on lock files that are gone: their claimants won, renamed, and were killed.
      "r.lock.claim-0123456789abcdef0123456789abcdef-0": `${String(DEAD_PID)} aa\n`,
      "r.lock.claim-fedcba9876543210fedcba9876543210-3": `${String(process.pid)} bb\n`,
      // A draft of a process killed before it removed it.
      [`r.lock.new-${String(DEAD_PID)}-0a0b0c0d`]: `${String(DEAD_PID)} cc\n`,
    };
    const kept = {
      // A live process's draft: it may be about to link it.
      [`r.lock.new-${String(process.pid)}-01020304`]: `${String(process.pid)} dd\n`,
      // Another run's lock files are not this lock's to clean.
      "s.lock.claim-0123456789abcdef0123456789abcdef-0": `${String(DEAD_PID)} ee\n`,
      [`s.lock.new-${String(DEAD_PID)}-0a0b0c0d`]: `${String(DEAD_PID)} ff\n`,
    };
    for (const [name, content] of Object.entries({ ...stale, ...kept })) {
      writeFileSync(join(dir, name), content);
    }
    const held = lockRun(lock);
    expect(readdirSync(dir).sort()).toEqual(["r.lock", ...Object.keys(kept)].sort());
    held.release();
  });

  it("leaves the claims on the current lock alone when refused", () => {
    const dir = directory();
    const lock = join(dir, "r.lock");
    writeFileSync(lock, `${String(process.pid)} 00112233445566778899\n`);
    const claim = "r.lock.claim-0123456789abcdef0123456789abcdef-0";
    writeFileSync(join(dir, claim), `${String(DEAD_PID)} aa\n`);
    expect(() => lockRun(lock, process.pid + 1)).toThrow(RunLockedError);
    expect(readdirSync(dir).sort()).toEqual(["r.lock", claim]);
  });
});
