import path from "node:path";

/** The two controllers the harness uses: they bound what processes do together, not each one. */
export type CgroupControl = "pids" | "memory";

export const CGROUP_CONTROLS: readonly CgroupControl[] = ["pids", "memory"];

/**
 * One cgroup hierarchy the harness can use: this process's own cgroup directory in it, and the
 * controllers it may hold. cgroup v1 mounts one hierarchy per controller (pids and memory apart,
 * each with its own directory for this process); v2 has one unified hierarchy holding both.
 */
export interface CgroupHierarchy {
  readonly version: 1 | 2;
  /** The directory of this process's own cgroup, under the hierarchy's mount point. */
  readonly ownDirectory: string;
  readonly controls: readonly CgroupControl[];
}

/**
 * Where this process's cgroups are, from the text of /proc/self/mountinfo and /proc/self/cgroup.
 * A controller mounted as v1 is used there (the kernel binds each controller to one hierarchy);
 * otherwise the unified v2 hierarchy is tried for it. Controllers found nowhere are left out: an
 * empty list means no cgroup here. Nothing is read or checked on disk.
 */
export function cgroupHierarchies(mountinfo: string, selfCgroup: string): CgroupHierarchy[] {
  const mounts = mountinfo.split("\n").flatMap((line) => parseMount(line) ?? []);
  const memberships = selfCgroup.split("\n").flatMap((line) => parseMembership(line) ?? []);
  const hierarchies: CgroupHierarchy[] = [];
  const unified: CgroupControl[] = [];
  for (const control of CGROUP_CONTROLS) {
    const mount = mounts.find((m) => m.type === "cgroup" && m.superOptions.includes(control));
    if (mount === undefined) {
      unified.push(control);
      continue;
    }
    const own = memberships.find((m) => m.controllers.includes(control));
    const directory = own === undefined ? undefined : directoryIn(mount, own.path);
    if (directory !== undefined) {
      hierarchies.push({ version: 1, ownDirectory: directory, controls: [control] });
    }
  }
  const v2Mount = mounts.find((m) => m.type === "cgroup2");
  const v2Own = memberships.find((m) => m.hierarchyId === "0" && m.controllers.length === 0);
  const v2Directory =
    v2Mount === undefined || v2Own === undefined ? undefined : directoryIn(v2Mount, v2Own.path);
  if (unified.length > 0 && v2Directory !== undefined) {
    hierarchies.push({ version: 2, ownDirectory: v2Directory, controls: unified });
  }
  return hierarchies;
}

interface Mount {
  /** The path inside the filesystem that is mounted (not `/` for a bind mount of a subtree). */
  readonly root: string;
  readonly mountPoint: string;
  readonly type: string;
  readonly superOptions: readonly string[];
}

/** `39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids` (proc(5)). */
function parseMount(line: string): Mount | undefined {
  const [before, after] = line.split(" - ");
  const fields = before?.split(" ") ?? [];
  const tail = after?.split(" ") ?? [];
  const [root, mountPoint] = [fields[3], fields[4]];
  const [type, , options] = tail;
  if (root === undefined || mountPoint === undefined || type === undefined) return undefined;
  return {
    root: unescapeMountPath(root),
    mountPoint: unescapeMountPath(mountPoint),
    type,
    superOptions: (options ?? "").split(","),
  };
}

/** mountinfo writes space, tab, newline and backslash as `\040`-style octal escapes. */
function unescapeMountPath(text: string): string {
  return text.replaceAll(/\\([0-7]{3})/g, (_, octal: string) =>
    String.fromCharCode(parseInt(octal, 8)),
  );
}

interface Membership {
  readonly hierarchyId: string;
  readonly controllers: readonly string[];
  readonly path: string;
}

/** `4:memory:/process_api/abc` (v1) or `0::/user.slice/x.scope` (v2), per cgroups(7). */
function parseMembership(line: string): Membership | undefined {
  const match = /^(\d+):([^:]*):(\/.*)$/.exec(line.trim());
  if (match === null) return undefined;
  const [, hierarchyId = "", list = "", cgroupPath = "/"] = match;
  return {
    hierarchyId,
    controllers: list === "" ? [] : list.split(","),
    path: cgroupPath,
  };
}

/**
 * The cgroup's directory under the mount: only when the mount shows it (a mount of a subtree that
 * does not hold this process's cgroup cannot place it) and the path is plain (no `..`).
 */
function directoryIn(mount: Mount, cgroupPath: string): string | undefined {
  const relative = path.posix.relative(mount.root, cgroupPath);
  if (relative.startsWith("..") || path.posix.isAbsolute(relative)) return undefined;
  if (path.posix.normalize(cgroupPath) !== cgroupPath && cgroupPath !== "/") return undefined;
  return relative === "" ? mount.mountPoint : path.posix.join(mount.mountPoint, relative);
}
