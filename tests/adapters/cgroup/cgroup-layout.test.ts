import { describe, expect, it } from "vitest";
import { cgroupHierarchies } from "../../../src/adapters/cgroup/cgroup-layout.js";

const V1_MOUNTS = [
  "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755",
  "32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct",
  "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory",
  "39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids",
  "40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd",
  "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw",
].join("\n");

const V2_MOUNTS = "30 23 0:27 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate";

describe("cgroupHierarchies", () => {
  it("v1 (this CI machine's shape): pids and memory apart, each at this process's own cgroup", () => {
    const self = ["9:name=systemd:/", "8:pids:/", "4:memory:/process_api/abc", "0::/"].join("\n");
    expect(cgroupHierarchies(V1_MOUNTS, self)).toEqual([
      { version: 1, ownDirectory: "/sys/fs/cgroup/pids", controls: ["pids"] },
      { version: 1, ownDirectory: "/sys/fs/cgroup/memory/process_api/abc", controls: ["memory"] },
    ]);
  });

  it("v2: one directory for both", () => {
    expect(cgroupHierarchies(V2_MOUNTS, "0::/user.slice/agent.scope\n")).toEqual([
      {
        version: 2,
        ownDirectory: "/sys/fs/cgroup/user.slice/agent.scope",
        controls: ["pids", "memory"],
      },
    ]);
  });

  it("a controller not mounted as v1 is looked for in v2; one mounted nowhere is left out", () => {
    const mounts = V1_MOUNTS.split("\n")
      .filter((line) => !line.includes("memory"))
      .join("\n");
    expect(cgroupHierarchies(mounts, "8:pids:/a\n0::/b")).toEqual([
      { version: 1, ownDirectory: "/sys/fs/cgroup/pids/a", controls: ["pids"] },
      { version: 2, ownDirectory: "/sys/fs/cgroup/unified/b", controls: ["memory"] },
    ]);
    expect(cgroupHierarchies("", "0::/")).toEqual([]);
  });

  it("a mount of a subtree places only cgroups inside it; escaped mount points are read", () => {
    const mounts = "30 23 0:27 /ns /sys/fs/cgroup\\040x rw - cgroup2 cgroup2 rw";
    expect(cgroupHierarchies(mounts, "0::/ns/job")).toEqual([
      { version: 2, ownDirectory: "/sys/fs/cgroup x/job", controls: ["pids", "memory"] },
    ]);
    expect(cgroupHierarchies(mounts, "0::/other")).toEqual([]);
    expect(cgroupHierarchies(V2_MOUNTS, "0::/a/../../etc")).toEqual([]);
  });
});
