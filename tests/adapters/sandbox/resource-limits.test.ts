import { describe, expect, it } from "vitest";
import {
  DEFAULT_RESOURCE_LIMITS,
  describeLimit,
  describeLimits,
  effectiveLimits,
  parseResourceLimits,
  prlimitArgs,
  ResourceLimitError,
} from "../../../src/adapters/sandbox/resource-limits.js";

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

describe("parseResourceLimits", () => {
  it("keeps the defaults, and each setting changes one limit", () => {
    expect(parseResourceLimits([])).toEqual(DEFAULT_RESOURCE_LIMITS);
    expect(
      parseResourceLimits([
        "memory=256MiB",
        "processes=64",
        "file-size=10M",
        "cpu-time=30",
        "open-files=unlimited",
      ]),
    ).toEqual({
      memory: 256 * MIB,
      processes: 64,
      "file-size": 10 * MIB,
      "cpu-time": 30,
      "open-files": undefined,
    });
    expect(parseResourceLimits(["memory=8gib", "memory=2GiB"]).memory).toBe(2 * GIB);
  });

  it.each([
    [
      "nothing=1",
      '--sandbox-limit takes NAME=VALUE with NAME one of memory, processes, file-size, cpu-time, open-files (got "nothing=1")',
    ],
    [
      "memory",
      '--sandbox-limit takes NAME=VALUE with NAME one of memory, processes, file-size, cpu-time, open-files (got "memory")',
    ],
    [
      "memory=lots",
      '--sandbox-limit memory must be from 64 MiB to 1 TiB (e.g. 512MiB, 4GiB) or "unlimited" (got "lots")',
    ],
    [
      "memory=1MiB",
      '--sandbox-limit memory must be from 64 MiB to 1 TiB (e.g. 512MiB, 4GiB) or "unlimited" (got "1MiB")',
    ],
    [
      "processes=-5",
      '--sandbox-limit processes must be from 16 to 1000000 or "unlimited" (got "-5")',
    ],
    [
      "processes=10k",
      '--sandbox-limit processes must be from 16 to 1000000 or "unlimited" (got "10k")',
    ],
    [
      "cpu-time=0",
      '--sandbox-limit cpu-time must be from 1 s to 604800 s or "unlimited" (got "0")',
    ],
    [
      "open-files=1.5",
      '--sandbox-limit open-files must be from 64 to 1048576 or "unlimited" (got "1.5")',
    ],
    [
      "file-size=99999999999999999999",
      '--sandbox-limit file-size must be from 1 MiB to 16 TiB (e.g. 512MiB, 4GiB) or "unlimited" (got "99999999999999999999")',
    ],
  ])("refuses %s", (setting, message) => {
    expect(() => parseResourceLimits([setting])).toThrow(new ResourceLimitError(message));
  });
});

describe("effectiveLimits", () => {
  const procLimits = [
    "Limit                     Soft Limit           Hard Limit           Units     ",
    "Max cpu time              unlimited            unlimited            seconds   ",
    "Max file size             unlimited            unlimited            bytes     ",
    "Max data size             unlimited            unlimited            bytes     ",
    "Max processes             96364                96364                processes ",
    "Max open files            1024                 2048                 files     ",
  ].join("\n");

  it("lowers a limit above the agent's own hard limit to it; leaves the others", () => {
    expect(effectiveLimits(DEFAULT_RESOURCE_LIMITS, procLimits)).toEqual({
      ...DEFAULT_RESOURCE_LIMITS,
      "open-files": 2048,
    });
    expect(effectiveLimits(DEFAULT_RESOURCE_LIMITS, undefined)).toEqual(DEFAULT_RESOURCE_LIMITS);
  });
});

describe("prlimitArgs", () => {
  it("sets soft and hard alike, CPU time's hard limit a second later, and skips unlimited", () => {
    const limits = parseResourceLimits(["open-files=unlimited"]);
    expect(prlimitArgs("/usr/bin/prlimit", limits)).toEqual([
      "/usr/bin/prlimit",
      `--data=${String(4 * GIB)}:${String(4 * GIB)}`,
      "--nproc=1024:1024",
      `--fsize=${String(2 * GIB)}:${String(2 * GIB)}`,
      "--cpu=600:601",
      "--",
    ]);
    expect(describeLimits(limits)).toBe(
      "memory 4 GiB, processes 1024, file-size 2 GiB, cpu-time 600 s",
    );
    expect(describeLimit("memory", 256 * MIB)).toBe("memory limit 256 MiB");
  });
});
