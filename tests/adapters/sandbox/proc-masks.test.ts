import { describe, expect, it } from "vitest";
import {
  procMaskArgs,
  type HostPaths,
  type PathKind,
} from "../../../src/adapters/sandbox/proc-masks.js";

function host(kinds: Readonly<Record<string, PathKind>>, thermal: string[] = []): HostPaths {
  return {
    kindOf: (path) => kinds[path] ?? "missing",
    thermalThrottleDirectories: () => thermal,
  };
}

describe("procMaskArgs", () => {
  it("binds read-only, masks files with /dev/null and directories with a read-only tmpfs", () => {
    const args = procMaskArgs(
      host(
        {
          "/proc/sys": "directory",
          "/proc/sysrq-trigger": "file",
          "/proc/kcore": "file",
          "/sys/firmware": "directory",
          "/sys/devices/system/cpu/cpu0/thermal_throttle": "directory",
        },
        ["/sys/devices/system/cpu/cpu0/thermal_throttle"],
      ),
    );
    expect(args).toEqual([
      ["--ro-bind", "/proc/sys", "/proc/sys"],
      ["--ro-bind", "/proc/sysrq-trigger", "/proc/sysrq-trigger"],
      ["--dev-bind", "/dev/null", "/proc/kcore"],
      ["--tmpfs", "/sys/firmware"],
      ["--remount-ro", "/sys/firmware"],
      ["--tmpfs", "/sys/devices/system/cpu/cpu0/thermal_throttle"],
      ["--remount-ro", "/sys/devices/system/cpu/cpu0/thermal_throttle"],
    ]);
  });

  it("skips what this kernel lacks, since bwrap cannot create mount points in procfs", () => {
    expect(procMaskArgs(host({}))).toEqual([]);
  });
});
