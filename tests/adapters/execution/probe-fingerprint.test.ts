import { chmod, mkdtemp, realpath, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  sandboxProbeFingerprint,
  type ProbeFingerprintOptions,
} from "../../../src/adapters/execution/index.js";

let bin: string;
let options: ProbeFingerprintOptions;

beforeEach(async () => {
  bin = await mkdtemp(join(await realpath(tmpdir()), "probe-fingerprint-"));
  await writeFile(join(bin, "bwrap"), "#!/bin/sh\n", { mode: 0o755 });
  options = {
    sandbox: "auto",
    network: false,
    shell: "auto",
    platform: "linux",
    bwrapPath: join(bin, "bwrap"),
  };
});

afterEach(async () => {
  await rm(bin, { recursive: true, force: true });
});

describe.skipIf(process.platform === "win32")("sandboxProbeFingerprint", () => {
  it("is the same for the same machine and settings", () => {
    expect(sandboxProbeFingerprint(options)).toBe(sandboxProbeFingerprint({ ...options }));
  });

  it.each<[string, Partial<ProbeFingerprintOptions>]>([
    ["the network setting", { network: true }],
    ["the sandbox mode", { sandbox: "required" }],
    ["the shell", { shell: "powershell" }],
    ["the CPU architecture", { arch: "riscv64" }],
    ["bwrap's path (none found)", { bwrapPath: undefined }],
    ["bwrap's path (another one)", { bwrapPath: "/nonexistent-bin/bwrap" }],
  ])("changes with %s", (_what, change) => {
    expect(sandboxProbeFingerprint({ ...options, ...change })).not.toBe(
      sandboxProbeFingerprint(options),
    );
  });

  it("changes when bwrap is replaced in place (size, mtime)", async () => {
    const before = sandboxProbeFingerprint(options);
    await utimes(join(bin, "bwrap"), new Date(2001, 1, 1), new Date(2001, 1, 1));
    const touched = sandboxProbeFingerprint(options);
    expect(touched).not.toBe(before);
    await writeFile(join(bin, "bwrap"), "#!/bin/sh\nexit 0\n");
    await chmod(join(bin, "bwrap"), 0o755);
    await utimes(join(bin, "bwrap"), new Date(2001, 1, 1), new Date(2001, 1, 1));
    expect(sandboxProbeFingerprint(options)).not.toBe(touched);
  });
});
