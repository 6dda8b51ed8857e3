/**
 * What the sandbox probe's verdict on this machine depends on, as one string: a remembered verdict
 * (bootstrap's probe verdict cache) is used only while this string is unchanged. It names bwrap's
 * resolved file (path, device, inode, size, mtime), the kernel release, the sysctls that allow or
 * forbid unprivileged user namespaces, the user namespace and seccomp mode this process runs in (a
 * container differs from its host), the settings the probe runs with, and the harness's own code.
 * Reading it costs a few stat and /proc reads, not a process.
 */
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { release } from "node:os";
import { fileURLToPath } from "node:url";
import type { ShellExecutionOptions } from "./shell-execution.js";
import { linkText } from "../filesystem/index.js";

/** Each may say a kernel forbids bwrap's user namespace; absent files are part of the answer too. */
const USER_NAMESPACE_SYSCTLS = [
  "/proc/sys/kernel/unprivileged_userns_clone",
  "/proc/sys/user/max_user_namespaces",
  "/proc/sys/kernel/apparmor_restrict_unprivileged_userns",
] as const;

export interface ProbeFingerprintOptions extends Pick<
  ShellExecutionOptions,
  "sandbox" | "network" | "shell" | "platform" | "arch"
> {
  /** bwrap as the run's sandbox plan found it (StartedShellExecution), the one the probe runs. */
  readonly bwrapPath: string | undefined;
}

/** A hex digest; equal digests mean the probe would meet the same machine with the same settings. */
export function sandboxProbeFingerprint(options: ProbeFingerprintOptions): string {
  const { bwrapPath } = options;
  const facts = {
    settings: {
      sandbox: options.sandbox,
      network: options.network,
      shell: options.shell,
      arch: options.arch ?? process.arch,
      platform: options.platform,
    },
    bwrap: bwrapPath === undefined ? null : { path: bwrapPath, ...fileIdentity(bwrapPath) },
    kernel: release(),
    sysctls: USER_NAMESPACE_SYSCTLS.map((path) => [path, readOrNull(path)]),
    userNamespace: linkText("/proc/self/ns/user") ?? null,
    seccomp: seccompMode(),
    uid: process.getuid?.() ?? null,
    // A new install or build of the harness may probe differently: its own code file says so.
    harness: fileIdentity(fileURLToPath(import.meta.url)),
  };
  return createHash("sha256").update(JSON.stringify(facts)).digest("hex");
}

function fileIdentity(path: string): Record<string, number> | null {
  try {
    const stats = statSync(path, { bigint: false });
    return { dev: stats.dev, ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs };
  } catch {
    return null;
  }
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    return null;
  }
}

/** The `Seccomp:` and `NoNewPrivs:` lines: a container's filter may forbid what the host allows. */
function seccompMode(): string | null {
  const status = readOrNull("/proc/self/status");
  if (status === null) return null;
  return status
    .split("\n")
    .filter((line) => line.startsWith("Seccomp:") || line.startsWith("NoNewPrivs:"))
    .join(";");
}
