/**
 * Linux control groups: one cgroup per sandboxed command, so its process and memory limits bind
 * all of its processes together (and bind root, whom the kernel exempts from RLIMIT_NPROC). Used
 * by the sandbox; bootstrap constructs it. Falls back to nothing where no cgroup is writable.
 */
export { CGROUP_PARENT, CommandCgroups, type CgroupAvailability } from "./command-cgroups.js";
export type { CommandCgroupLimits, CommandCgroupsOptions } from "./command-cgroups.js";
export type { CommandCgroup } from "./command-cgroup.js";
export type { CgroupEvidence } from "./cgroup-controls.js";
export { CgroupError } from "./cgroup-files.js";
