/**
 * A host command outlives a harness killed with `kill -9`: nothing tells its process group that
 * the harness is gone. PR_SET_PDEATHSIG cannot be set from Node for a spawned child, and would
 * reach only the root process anyway (it is cleared at fork). So each host command gets a guard:
 * a tiny `sh` in a process group of its own, whose stdin is a pipe only the harness holds. When
 * the harness dies, however it dies, the kernel closes that pipe, the guard's `read` ends, and it
 * sends SIGKILL to the command's whole process group. When the command ends normally the harness
 * kills the guard first, so nothing the command legitimately left running is touched.
 *
 * Not reached: a process that left the group (`setsid`, a daemon) or that kills the guard: a
 * host run has no containment, and `agent resume` says the command may still be running.
 */
import { spawn, type ChildProcess } from "node:child_process";

/** `$1` is the process group id; `read` returns at end-of-file, i.e. when the harness is gone. */
// No `--`: dash's kill takes `-KILL -<pgid>` but refuses `--`.
const GUARD_SCRIPT = 'read _ ; kill -KILL "-$1" 2>/dev/null';

export interface OrphanGuard {
  /** The command ended while the harness lives: stop the guard without firing it. */
  release(): void;
}

/**
 * Starts the guard for the process group `pgid` with the `sh` at `shellPath`; undefined when it
 * could not start (the command then runs unguarded, as before).
 */
export function startOrphanGuard(pgid: number, shellPath = "/bin/sh"): OrphanGuard | undefined {
  let guard: ChildProcess;
  try {
    guard = spawn(shellPath, ["-c", GUARD_SCRIPT, "agent-orphan-guard", String(pgid)], {
      stdio: ["pipe", "ignore", "ignore"],
      // Its own group: the group kill of a timed-out command must not take the guard along,
      // nor may a Ctrl-C that reaches the harness's group.
      detached: true,
      env: { PATH: "/usr/bin:/bin" },
    });
  } catch {
    return undefined;
  }
  guard.on("error", () => undefined);
  guard.stdin?.on("error", () => undefined);
  // Neither the guard nor its pipe keeps the harness alive.
  guard.unref();
  (guard.stdin as { unref?: () => void } | null)?.unref?.();
  return {
    release() {
      guard.kill("SIGKILL");
    },
  };
}
