import { lstatSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * What the once-per-run probe proves about the hardening (sandbox-hardening.ts), checked from
 * inside (exit codes) and, where it can be, from the host:
 *
 * (a) The host's sysctls are read-only: core_pattern cannot be written. The probe never writes a
 *     byte it has not just read, and tries that write only after an open-for-append that writes
 *     nothing was already refused, so even a broken sandbox changes nothing. The host compares
 *     the value before and after anyway, and puts the old one back if it moved.
 * (b) No setuid or setgid bit can be set: seccomp is in force (`Seccomp: 2`), and `chmod u+s` and
 *     `chmod g+s` leave no bit on an empty file in the sandbox's /tmp nor on one in the probe's
 *     temp workspace, which the host then lstat()s. seccomp knows nothing of paths, so the two
 *     places must agree; the probe checks that rather than assume it. An empty file runs nothing,
 *     and the probe's temp directory is removed either way.
 * An ordinary `chmod 755` must still work, or the filter would be too broad to use.
 */

/** Continues the probe's exit codes (71-74 are bubblewrap-probe.ts's own). */
export const HARDENING_EXIT = {
  sysctlWritable: 75,
  sysrqWritable: 76,
  setuidAllowed: 77,
  ordinaryChmodFailed: 78,
  noSeccomp: 79,
} as const;

export const SETUID_PROBE_FILE = "probe-setuid";
export const CORE_PATTERN = "/proc/sys/kernel/core_pattern";

/** POSIX sh lines, run in the probe workspace, before the probe's final `exit 0`. */
export function hardeningProbeLines(): string[] {
  const e = HARDENING_EXIT;
  return [
    // Open for writing, write nothing: refused at open (EROFS) once /proc/sys is read-only.
    `if (exec 9>>${CORE_PATTERN}) 2>/dev/null; then exit ${e.sysctlWritable}; fi`,
    // The red team's write, of the value just read; skipped if it cannot be read.
    `if p=$(cat ${CORE_PATTERN} 2>/dev/null); then`,
    `  if (printf '%s\\n' "$p" > ${CORE_PATTERN}) 2>/dev/null; then exit ${e.sysctlWritable}; fi`,
    `fi`,
    // Any byte written to sysrq-trigger is a command; only ever open it.
    `if [ -e /proc/sysrq-trigger ] && (exec 9>>/proc/sysrq-trigger) 2>/dev/null; then`,
    `  exit ${e.sysrqWritable}`,
    `fi`,
    `grep -q '^Seccomp:[[:space:]]*2$' /proc/self/status || exit ${e.noSeccomp}`,
    `for f in /tmp/${SETUID_PROBE_FILE} ./${SETUID_PROBE_FILE}; do`,
    `  : > "$f" && chmod 755 "$f" || exit ${e.ordinaryChmodFailed}`,
    `  chmod u+s "$f" 2>/dev/null; if [ -u "$f" ]; then exit ${e.setuidAllowed}; fi`,
    `  chmod g+s "$f" 2>/dev/null; if [ -g "$f" ]; then exit ${e.setuidAllowed}; fi`,
    `done`,
  ];
}

const FAILURES = new Map<number, string>([
  [HARDENING_EXIT.sysctlWritable, "the host's /proc/sys (kernel.core_pattern) was writable"],
  [HARDENING_EXIT.sysrqWritable, "/proc/sysrq-trigger was writable"],
  [HARDENING_EXIT.setuidAllowed, "a command could set the setuid or setgid bit on a file"],
  [HARDENING_EXIT.ordinaryChmodFailed, "an ordinary chmod 755 failed inside the sandbox"],
  [HARDENING_EXIT.noSeccomp, "the seccomp filter was not in force inside the sandbox"],
]);

/** Why the probe failed, for one of the codes above; undefined for any other code. */
export function hardeningFailure(exitCode: number | null): string | undefined {
  return exitCode === null ? undefined : FAILURES.get(exitCode);
}

/** Host-side evidence, read before the probe runs and judged after. */
export interface CorePatternWatch {
  /** True when the value after the run differs; it has been written back already. */
  changedAndRestored(): boolean;
}

export function watchCorePattern(file: string = CORE_PATTERN): CorePatternWatch {
  const before = readOrUndefined(file);
  return {
    changedAndRestored(): boolean {
      const after = readOrUndefined(file);
      if (before === undefined || after === before) return false;
      try {
        writeFileSync(file, before);
      } catch {
        // Reported as changed either way, and the sandbox is refused.
      }
      return true;
    },
  };
}

/** True when the workspace probe file carries S_ISUID or S_ISGID, as the host sees it. */
export function setuidLeftInWorkspace(workspace: string): boolean {
  try {
    return (lstatSync(path.join(workspace, SETUID_PROBE_FILE)).mode & 0o6000) !== 0;
  } catch {
    return false;
  }
}

function readOrUndefined(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}
