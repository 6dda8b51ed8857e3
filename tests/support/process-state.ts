import { readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";

/**
 * Gone means no such process, or a zombie nobody has reaped yet (a container's PID 1 may not).
 * Linux answers from /proc; macOS has no /proc, so there `ps` answers (an empty reply: no such
 * process). Never true merely because the question could not be asked: that would pass silently.
 */
export function isGone(pid: number): boolean {
  if (process.platform === "linux") return isGoneFromProc(pid);
  const ps = spawnSync("ps", ["-o", "stat=", "-p", String(pid)], { encoding: "utf8" });
  if (ps.error !== undefined) throw ps.error;
  const state = ps.stdout.trim();
  return state === "" || state.startsWith("Z");
}

function isGoneFromProc(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${String(pid)}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
    return state === "Z" || state === "X";
  } catch {
    return true;
  }
}

/** Kills, and forgets, the processes a test left behind (children it watched); gone ones are fine. */
export function killLeftovers(pids: number[]): void {
  for (const pid of pids.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}
