/**
 * One cgroup per sandboxed command, under a parent the harness owns (`agent-harness/`, inside this
 * process's own cgroup), so the process and memory limits bind the command's processes together,
 * and bind root too: the kernel exempts root from RLIMIT_NPROC, never from `pids.max`.
 *
 * Whether a cgroup can be had is decided once, at the first command: the parent is made (or
 * reused) and checked, a trial cgroup shows which controllers it holds. Not available (not root,
 * a read-only /sys/fs/cgroup, a v2 hierarchy that delegates nothing): `create` returns undefined
 * and the command keeps its rlimits alone.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmdirSync } from "node:fs";
import path from "node:path";
import { limitFile, writeLimit } from "./cgroup-controls.js";
import {
  assertRealDirectory,
  CgroupError,
  hasControl,
  makeOwnDirectory,
  messageOf,
  writeControl,
} from "./cgroup-files.js";
import { cgroupHierarchies, type CgroupControl, type CgroupHierarchy } from "./cgroup-layout.js";
import { CommandCgroup, type CgroupDirectory } from "./command-cgroup.js";

/** The limits a command's cgroup sets; `undefined` sets none for that controller. */
export interface CommandCgroupLimits {
  /** `pids.max`: processes and threads of the command together. */
  readonly processes: number | undefined;
  /** The memory limit of the command's processes together, swap included. */
  readonly memory: number | undefined;
}

export interface CommandCgroupsOptions {
  /** The text of /proc/self/mountinfo and /proc/self/cgroup; read from /proc when absent. */
  readonly mountinfo?: string;
  readonly selfCgroup?: string;
  /** The parent's name; tests give their own, so other harnesses on the machine are not in it. */
  readonly parentName?: string;
}

export type CgroupAvailability =
  { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** The directory under this process's own cgroup that holds every command's cgroup. */
export const CGROUP_PARENT = "agent-harness";

/** `<pid>-<8 hex>-<n>`, or `-probe` for the trial: the pid says whose it was. */
const CHILD_NAME = /^(\d+)-[0-9a-f]{8}-(\d+|probe)$/;

interface UsableHierarchy {
  readonly version: 1 | 2;
  readonly parent: string;
  readonly controls: readonly CgroupControl[];
}

export class CommandCgroups {
  readonly #options: CommandCgroupsOptions;
  /** This harness's prefix for its cgroups' names. */
  readonly #tag = `${String(process.pid)}-${randomBytes(4).toString("hex")}`;
  #decided: readonly UsableHierarchy[] | string | undefined;
  #count = 0;

  constructor(options: CommandCgroupsOptions = {}) {
    this.#options = options;
  }

  /** Whether commands get a cgroup here, and if not why; decided once (it makes the parent). */
  availability(): CgroupAvailability {
    const decided = this.#decide();
    return typeof decided === "string" ? { ok: false, reason: decided } : { ok: true };
  }

  /**
   * Whether a command's cgroup will hold its process limit (`pids.max`), and if not why; decided
   * once, like `availability` (it makes the parent).
   */
  processLimitBinds(): CgroupAvailability {
    const decided = this.#decide();
    if (typeof decided === "string") return { ok: false, reason: decided };
    return decided.some((hierarchy) => hierarchy.controls.includes("pids"))
      ? { ok: true }
      : { ok: false, reason: "no cgroup here holds the pids controller" };
  }

  /**
   * A fresh cgroup with these limits set; undefined when cgroups are not available here or no
   * limit applies. Throws CgroupError when they are available but this one could not be made.
   */
  create(limits: CommandCgroupLimits): CommandCgroup | undefined {
    const decided = this.#decide();
    if (typeof decided === "string") return undefined;
    const wanted = decided.filter((hierarchy) =>
      hierarchy.controls.some((control) => valueOf(limits, control) !== undefined),
    );
    if (wanted.length === 0) return undefined;
    this.#count += 1;
    const name = `${this.#tag}-${String(this.#count)}`;
    const made: CgroupDirectory[] = [];
    try {
      for (const hierarchy of wanted) {
        const { version, controls } = hierarchy;
        const directory = makeCommandDirectory(hierarchy, name);
        made.push({ directory, version });
        for (const control of controls) {
          const value = valueOf(limits, control);
          if (value !== undefined) writeLimit(directory, version, control, value);
        }
      }
    } catch (error) {
      for (const { directory } of made) removeQuietly(directory);
      throw error instanceof CgroupError ? error : new CgroupError(messageOf(error));
    }
    return new CommandCgroup(made);
  }

  #decide(): readonly UsableHierarchy[] | string {
    if (this.#decided !== undefined) return this.#decided;
    const hierarchies = cgroupHierarchies(
      this.#options.mountinfo ?? readProc("/proc/self/mountinfo"),
      this.#options.selfCgroup ?? readProc("/proc/self/cgroup"),
    );
    const usable: UsableHierarchy[] = [];
    const reasons: string[] = [];
    for (const hierarchy of hierarchies) {
      const prepared = this.#prepare(hierarchy);
      if (typeof prepared === "string") reasons.push(prepared);
      else usable.push(prepared);
    }
    this.#decided =
      usable.length > 0
        ? usable
        : reasons.length > 0
          ? reasons.join("; ")
          : "no pids or memory cgroup controller is mounted";
    return this.#decided;
  }

  /** The parent made and checked, and the controllers a trial cgroup in it holds. */
  #prepare(hierarchy: CgroupHierarchy): UsableHierarchy | string {
    const { version, ownDirectory } = hierarchy;
    const parent = path.join(ownDirectory, this.#options.parentName ?? CGROUP_PARENT);
    try {
      // This process's own cgroup directory, as mountinfo and /proc/self/cgroup name it.
      assertRealDirectory(ownDirectory);
      // v2 puts a controller in a child only when its parent enables it; this fails (EBUSY) where
      // this process's own cgroup holds processes, and then the trial shows none.
      if (version === 2) enableControllers(ownDirectory, hierarchy.controls);
      const candidate = { version, parent, controls: hierarchy.controls };
      makeParent(candidate);
      sweepStale(parent);
      const trial = makeCommandDirectory(candidate, `${this.#tag}-probe`);
      const controls = hierarchy.controls.filter((control) =>
        hasControl(path.join(trial, limitFile(version, control))),
      );
      removeQuietly(trial);
      // Made again for each command (makeParent); an empty one is not left behind meanwhile.
      removeQuietly(parent);
      if (controls.length === 0) {
        return `${parent} holds no ${hierarchy.controls.join(" or ")} controller`;
      }
      return { version, parent, controls };
    } catch (error) {
      return messageOf(error);
    }
  }
}

/**
 * The parent, made again if it is gone (each harness removes it when it empties), and checked
 * each time: a mkdir below a parent swapped for a link would land behind the link.
 */
function makeParent(hierarchy: UsableHierarchy): void {
  makeOwnDirectory(hierarchy.parent, true);
  if (hierarchy.version === 2) enableControllers(hierarchy.parent, hierarchy.controls);
}

/**
 * A new directory for one command: never an existing one, which could hold someone else's
 * processes. Another harness may remove the shared parent between its check and the mkdir; then
 * once more.
 */
function makeCommandDirectory(hierarchy: UsableHierarchy, name: string): string {
  const directory = path.join(hierarchy.parent, name);
  for (let attempt = 0; ; attempt += 1) {
    makeParent(hierarchy);
    try {
      makeOwnDirectory(directory, false);
      return directory;
    } catch (error) {
      if (attempt > 0 || existsSync(hierarchy.parent)) throw error;
    }
  }
}

function valueOf(limits: CommandCgroupLimits, control: CgroupControl): number | undefined {
  return control === "pids" ? limits.processes : limits.memory;
}

function enableControllers(directory: string, controls: readonly CgroupControl[]): void {
  for (const control of controls) {
    try {
      writeControl(path.join(directory, "cgroup.subtree_control"), `+${control}`);
    } catch {
      // Not delegated here: the trial cgroup will show it missing.
    }
  }
}

/**
 * Cgroups left by a harness that died before it could remove them (kill -9): only names of ours
 * whose process is gone, and only empty ones (rmdir refuses a cgroup that holds processes).
 */
function sweepStale(parent: string): void {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(CHILD_NAME.exec(name)?.[1]);
    if (Number.isSafeInteger(pid) && !isAlive(pid)) removeQuietly(path.join(parent, name));
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function removeQuietly(directory: string): void {
  try {
    rmdirSync(directory);
  } catch {
    // stays for a later sweep
  }
}

function readProc(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}
