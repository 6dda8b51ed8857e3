import { rmdirSync } from "node:fs";
import path from "node:path";
import { readEvidence, type CgroupEvidence } from "./cgroup-controls.js";
import { hasControl, readControl, writeControl } from "./cgroup-files.js";

/** One directory of a command's cgroup: one per hierarchy (v1: pids and memory apart). */
export interface CgroupDirectory {
  readonly directory: string;
  readonly version: 1 | 2;
}

/**
 * Run before the command by the harness's own shell: it writes its own pid into every
 * hierarchy's `cgroup.procs`, then executes the command in its place. So the command starts
 * inside the cgroup and every process it forks is born there; none can start outside first.
 * A write that fails ends it before anything runs (exit 125, no command started). It runs on the
 * host, outside any sandbox: start it with a fixed environment of the harness's own, never the
 * command's (a bash reads `$BASH_ENV` and imports `BASH_FUNC_*` before running this).
 */
const ENTER_SCRIPT =
  'while [ "$#" -gt 0 ] && [ "$1" != -- ]; do echo "$$" > "$1" || exit 125; shift; done; shift; exec "$@"';

/** Waiting for the killed processes to leave: at most this many tries, this far apart. */
const REMOVE_TRIES = 200;
const REMOVE_PAUSE_MS = 10;

/** The cgroup of one command, made by CommandCgroups.create with its limits already set. */
export class CommandCgroup {
  readonly #directories: readonly CgroupDirectory[];

  constructor(directories: readonly CgroupDirectory[]) {
    this.#directories = directories;
  }

  /** The directories, for tests and messages. */
  get directories(): readonly string[] {
    return this.#directories.map((entry) => entry.directory);
  }

  /** The argv that puts itself in the cgroup and then executes what follows it. */
  entryArgv(shellPath: string): string[] {
    const procs = this.#directories.map((entry) => path.join(entry.directory, "cgroup.procs"));
    return [shellPath, "-c", ENTER_SCRIPT, "agent-cgroup", ...procs, "--"];
  }

  /** What the kernel counted; read it before `remove`. */
  evidence(): CgroupEvidence {
    return readEvidence(this.#directories);
  }

  /**
   * Kills whatever is left in the cgroup, waits for it to go, and removes the directories (and
   * the parent when it is empty). When the sandbox ended its PID namespace, nothing is left and
   * the first `rmdir` succeeds. Never throws: a directory that will not go stays until a later
   * harness sweeps it.
   */
  async remove(): Promise<void> {
    let left = [...this.#directories];
    for (let tries = 0; tries < REMOVE_TRIES && left.length > 0; tries += 1) {
      if (tries > 0) await pause(REMOVE_PAUSE_MS);
      left = left.filter((entry) => !doneWith(entry));
    }
    // The shared parent too, once no harness has a command in it: nothing stays behind in the
    // machine's cgroup tree. rmdir refuses a parent that still holds another command's cgroup.
    for (const { directory } of this.#directories) {
      try {
        rmdirSync(path.dirname(directory));
      } catch {
        // another command's cgroup is in it, or it is gone already
      }
    }
  }
}

/**
 * Removes the directory (true); if processes keep it busy, kills them and says to try again
 * (false). Any other failure cannot be waited out: true, and the directory stays.
 */
function doneWith({ directory, version }: CgroupDirectory): boolean {
  try {
    rmdirSync(directory);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EBUSY") return true;
  }
  const kill = path.join(directory, "cgroup.kill");
  if (version === 2 && hasControl(kill)) {
    try {
      writeControl(kill, "1");
      return false;
    } catch {
      // an older v2 without cgroup.kill semantics: kill one by one below
    }
  }
  for (const pid of pidsIn(directory)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  return false;
}

function pidsIn(directory: string): number[] {
  const text = readControl(path.join(directory, "cgroup.procs")) ?? "";
  return text
    .split("\n")
    .map(Number)
    .filter((pid) => Number.isSafeInteger(pid) && pid > 0);
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
