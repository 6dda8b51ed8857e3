import { readdirSync, statSync } from "node:fs";

/**
 * bwrap arguments that make the kernel's control files under /proc read-only and hide the ones
 * that leak host secrets, the way runc applies an OCI spec's `readonlyPaths` and `maskedPaths`.
 *
 * Why bwrap's own cover is not enough: after `--proc /proc` bwrap re-binds "sys",
 * "sysrq-trigger", "irq" and "bus" read-only, but only when access(W_OK) says they are writable,
 * and for the /proc/sys directory that answer is always EACCES (proc_sys_permission refuses
 * MAY_WRITE on directories), so /proc/sys stays writable. With --unshare-user as host root, uid 0
 * inside is kuid 0 outside, owner of every sysctl file: `echo x > /proc/sys/kernel/core_pattern`
 * then changes the host (reproduced as root on Linux 6.18 with bubblewrap 0.8).
 *
 * /sys needs no read-only pass: `--ro-bind / /` remounts every submount read-only, /sys and
 * /sys/fs/cgroup* included (checked with `find /sys -writable`). Only the masks apply there.
 *
 * Order: these must come after `--ro-bind / /` and `--proc /proc`, which they cover. bwrap takes
 * every bind *source* from the old root, the host: `--ro-bind /proc/sys /proc/sys` binds the
 * host's procfs. That is the same kernel table; per-namespace entries (net.*, kernel.hostname,
 * kernel.shm*, user.*) resolve against the namespaces of the task reading them, so the sandbox
 * still sees its own network namespace there.
 */

/**
 * The OCI default `readonlyPaths`, identical in moby (daemon/pkg/oci/defaults.go) and containerd
 * (pkg/oci/spec.go): control surfaces written by root, global to the host.
 */
export const READ_ONLY_PROC_PATHS = [
  "/proc/bus",
  "/proc/fs",
  "/proc/irq",
  "/proc/sys",
  "/proc/sysrq-trigger",
] as const;

/**
 * moby's current default `maskedPaths` (daemon/pkg/oci/defaults.go). containerd's list is the same
 * minus `/proc/interrupts` and the thermal_throttle entries, which moby added for
 * GHSA-6fw5-f8r9-fgfm; `/sys/devices/virtual/powercap` came with GHSA-jq35-85cj-fj4p (a power
 * side channel). kcore and keys matter most: kernel memory and the host's key descriptions.
 */
export const MASKED_PATHS = [
  "/proc/acpi",
  "/proc/asound",
  "/proc/interrupts",
  "/proc/kcore",
  "/proc/keys",
  "/proc/latency_stats",
  "/proc/sched_debug",
  "/proc/scsi",
  "/proc/timer_list",
  "/proc/timer_stats",
  "/sys/devices/virtual/powercap",
  "/sys/firmware",
] as const;

export type PathKind = "file" | "directory" | "missing";

/** What exists on this host; /proc and /sys entries depend on kernel config and hardware. */
export interface HostPaths {
  kindOf(path: string): PathKind;
  /** `/sys/devices/system/cpu/cpuN/thermal_throttle` for each CPU that has one (runc masks them). */
  thermalThrottleDirectories(): readonly string[];
}

/**
 * The argument fragments, in order. A path this kernel lacks is skipped: bwrap cannot create a
 * mount point inside procfs or a read-only sysfs and would fail the whole run.
 */
export function procMaskArgs(host: HostPaths): string[][] {
  const args: string[][] = [];
  for (const readOnly of READ_ONLY_PROC_PATHS) {
    if (host.kindOf(readOnly) !== "missing") args.push(["--ro-bind", readOnly, readOnly]);
  }
  for (const masked of [...MASKED_PATHS, ...host.thermalThrottleDirectories()]) {
    const kind = host.kindOf(masked);
    if (kind === "directory") {
      // runc mounts a read-only tmpfs; bwrap's --tmpfs is writable until remounted.
      args.push(["--tmpfs", masked], ["--remount-ro", masked]);
    } else if (kind === "file") {
      // runc binds /dev/null, so the file reads as empty rather than failing. --dev-bind keeps
      // the device usable; --ro-bind would add nodev and every open would fail with EACCES.
      // Writes land in /dev/null.
      args.push(["--dev-bind", "/dev/null", masked]);
    }
  }
  return args;
}

/** The host as it is now; asked once per run, when the runner is built. */
export const liveHostPaths: HostPaths = {
  kindOf(path: string): PathKind {
    try {
      // Most masked paths are absent on a given kernel: no error object built for each.
      const stats = statSync(path, { throwIfNoEntry: false });
      if (stats === undefined) return "missing";
      return stats.isDirectory() ? "directory" : "file";
    } catch {
      return "missing";
    }
  },
  thermalThrottleDirectories(): readonly string[] {
    const cpus = "/sys/devices/system/cpu";
    let names: string[];
    try {
      names = readdirSync(cpus);
    } catch {
      return [];
    }
    return names
      .filter((name) => /^cpu\d+$/.test(name))
      .map((name) => `${cpus}/${name}/thermal_throttle`)
      .filter((candidate) => liveHostPaths.kindOf(candidate) === "directory");
  },
};
