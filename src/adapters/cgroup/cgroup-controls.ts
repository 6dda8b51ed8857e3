/**
 * The control files of each cgroup version: where a limit is written and where the kernel counts
 * the times it bit. v1 and v2 name the same things differently.
 */
import path from "node:path";
import type { CgroupControl } from "./cgroup-layout.js";
import { countIn, hasControl, readControl, writeControl } from "./cgroup-files.js";

/** What a cgroup saw of its limits; read before it is removed. */
export interface CgroupEvidence {
  /** Forks refused at `pids.max` (pids.events `max`); 0 when never or unknown. */
  readonly forkRefusals: number;
  /** Processes the OOM killer ended at the memory limit; undefined when the kernel does not say. */
  readonly oomKills: number | undefined;
  /** Times usage reached the memory limit (memory.failcnt, v1); reclaim may have sufficed. */
  readonly memoryFailures: number;
}

/** The file whose presence shows a controller is enabled in a directory. */
export function limitFile(version: 1 | 2, control: CgroupControl): string {
  if (control === "pids") return "pids.max";
  return version === 1 ? "memory.limit_in_bytes" : "memory.max";
}

/**
 * Sets one controller's limit. Memory bounds swap too where the kernel has the file: v1's
 * memsw limit is memory plus swap (so equal to the memory limit: no swap), v2's swap.max is swap
 * alone (so 0). Written after the memory limit: v1 refuses a memsw limit below it.
 */
export function writeLimit(
  directory: string,
  version: 1 | 2,
  control: CgroupControl,
  value: number,
): void {
  writeControl(path.join(directory, limitFile(version, control)), String(value));
  if (control !== "memory") return;
  const [swapFile, swapValue] =
    version === 1 ? ["memory.memsw.limit_in_bytes", String(value)] : ["memory.swap.max", "0"];
  const file = path.join(directory, swapFile);
  if (hasControl(file)) writeControl(file, swapValue);
}

/** What the kernel counted in these directories (one per hierarchy), summed. */
export function readEvidence(
  directories: readonly { readonly directory: string; readonly version: 1 | 2 }[],
): CgroupEvidence {
  let forkRefusals = 0;
  let oomKills: number | undefined;
  let memoryFailures = 0;
  for (const { directory, version } of directories) {
    const read = (name: string): string | undefined => readControl(path.join(directory, name));
    forkRefusals += countIn(read("pids.events"), "max") ?? 0;
    const kills =
      version === 1
        ? countIn(read("memory.oom_control"), "oom_kill")
        : countIn(read("memory.events"), "oom_kill");
    if (kills !== undefined) oomKills = (oomKills ?? 0) + kills;
    memoryFailures += Number(read("memory.failcnt")?.trim() ?? 0) || 0;
  }
  return { forkRefusals, oomKills, memoryFailures };
}
