import { chmod, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  hardeningFailure,
  HARDENING_EXIT,
  setuidLeftInWorkspace,
  SETUID_PROBE_FILE,
  watchCorePattern,
} from "../../../src/adapters/sandbox/probe-hardening.js";

const POSIX_ONLY = process.platform === "win32";

describe.skipIf(POSIX_ONLY)("probe hardening, host side (POSIX only: mode bits)", () => {
  let base: string;

  beforeEach(async () => {
    base = await mkdtemp(join(await realpath(tmpdir()), "probe-hardening-"));
  });

  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it("puts a changed core_pattern back and says so; an unchanged one is left alone", async () => {
    const file = join(base, "core_pattern");
    await writeFile(file, "core\n");
    const unchanged = watchCorePattern(file);
    expect(unchanged.changedAndRestored()).toBe(false);
    const changed = watchCorePattern(file);
    await writeFile(file, "|/tmp/ws/evil.sh\n");
    expect(changed.changedAndRestored()).toBe(true);
    expect(await readFile(file, "utf8")).toBe("core\n");
  });

  it("sees a setuid or setgid bit on the workspace probe file, and nothing when it is absent", async () => {
    expect(setuidLeftInWorkspace(base)).toBe(false);
    const file = join(base, SETUID_PROBE_FILE);
    await writeFile(file, "");
    await chmod(file, 0o755);
    expect(setuidLeftInWorkspace(base)).toBe(false);
    await chmod(file, 0o2755);
    expect(setuidLeftInWorkspace(base)).toBe(true);
    await chmod(file, 0o4755);
    expect(setuidLeftInWorkspace(base)).toBe(true);
  });
});

describe("hardeningFailure", () => {
  it.each([
    [HARDENING_EXIT.sysctlWritable, "the host's /proc/sys (kernel.core_pattern) was writable"],
    [HARDENING_EXIT.sysrqWritable, "/proc/sysrq-trigger was writable"],
    [HARDENING_EXIT.setuidAllowed, "a command could set the setuid or setgid bit on a file"],
    [HARDENING_EXIT.ordinaryChmodFailed, "an ordinary chmod 755 failed inside the sandbox"],
    [HARDENING_EXIT.noSeccomp, "the seccomp filter was not in force inside the sandbox"],
    [0, undefined],
    [74, undefined],
    [null, undefined],
  ])("exit %s: %s", (code, reason) => {
    expect(hardeningFailure(code)).toBe(reason);
  });
});
