import path from "node:path";
import { isWithinRoot } from "../filesystem/index.js";
import { SandboxSetupError, SandboxWorkspaceError } from "./sandbox-errors.js";
import { unsafeWorkspace } from "./unsafe-workspace.js";

export interface BubblewrapArgsOptions {
  /** Real path (symlinks resolved) of the workspace: the only host directory left writable. */
  readonly workspace: string;
  /** Real path of the working directory; the workspace or a directory inside it. */
  readonly cwd: string;
  /**
   * Real paths inside the workspace to bind read-only again on top of the writable workspace: the
   * `.git` directory, or the `.git` file of a worktree, and those of nested repositories, so a
   * command cannot plant a hook or rewrite the git config that later runs on the host.
   */
  readonly readOnlyPaths: readonly string[];
  /**
   * Real paths outside the workspace that commands must neither read nor write (the harness's state
   * directory: run journals hold whole conversations). Each is covered by an empty read-only tmpfs.
   */
  readonly hiddenPaths?: readonly string[];
  /**
   * Real paths of the person's credential files (credential-masks.ts), outside the workspace:
   * each is covered by `maskSource`, an empty read-only file, so it reads as empty. Their
   * directories go in `hiddenPaths`.
   */
  readonly maskedFiles?: readonly string[];
  /** Real path of an empty regular file of the harness's own (empty-file.ts). */
  readonly maskSource?: string;
  /** Real path of the host directory bound writable at `cacheMount` (the package cache). */
  readonly cacheDirectory?: string;
  /** Where the cache appears inside the sandbox, on its private /tmp. */
  readonly cacheMount?: string;
  /**
   * Stores of the cache (real paths inside `cacheDirectory`) bound writable where a tool whose
   * home lasts one command keeps its downloads (sandbox-environment.ts's KEPT_STORES).
   */
  readonly keptStores?: readonly { readonly source: string; readonly at: string }[];
  /** Paths under `cacheMount` covered by an empty tmpfs: they last one command. */
  readonly perCommandInCache?: readonly string[];
  /** Real path of the home directory; neither it nor anything above it may be the workspace. */
  readonly home: string | undefined;
  readonly network: boolean;
  /** The allowlisted environment; nothing else reaches the command (`--clearenv`). */
  readonly environment: Readonly<Record<string, string>>;
  /** The descriptor bwrap reports the command's exit code on, to tell it from a setup failure. */
  readonly statusFd: number;
  /**
   * Read-only binds and masks for /proc and /sys (proc-masks.ts), placed right after `--proc`:
   * without them a root harness's sandbox writes the host's sysctls, core_pattern included.
   */
  readonly procMasks: readonly (readonly string[])[];
  /** The descriptor bwrap reads the seccomp program from (seccomp-filter.ts); not the status one. */
  readonly seccompFd: number;
  /** The inner program and its arguments, e.g. `/usr/bin/bash --noprofile --norc -c <command>`. */
  readonly command: readonly string[];
}

/**
 * The temp directory inside the sandbox is a fresh tmpfs at /tmp; a host TMPDIR such as
 * /tmp/user/1000 would not exist there, and one elsewhere would be read-only.
 */
const TEMP_NAMES = new Set(["TMPDIR", "TMP", "TEMP"]);
const SANDBOX_TEMP = "/tmp";

/**
 * The bwrap argument list (never a shell string). Order matters: later mounts cover earlier ones, so
 * the read-only root comes first, then /proc with its masks, then the private /tmp and /run, then the
 * writable workspace, then the read-only git metadata inside it.
 */
export function bubblewrapArgs(options: BubblewrapArgsOptions): string[] {
  const { workspace, cwd } = options;
  assertWorkspace(workspace, options.home);
  assertInside(cwd, workspace, "working directory");
  for (const readOnly of options.readOnlyPaths) assertInside(readOnly, workspace, "read-only path");
  const hidden = options.hiddenPaths ?? [];
  for (const path of hidden) assertApart(path, workspace);
  const maskedFiles = options.maskedFiles ?? [];
  for (const path of maskedFiles) assertApart(path, workspace);
  if (
    maskedFiles.length > 0 &&
    (options.maskSource === undefined || !isNormalAbsolute(options.maskSource))
  ) {
    throw new SandboxSetupError("The sandbox needs an empty file to mask credential files with");
  }
  const cache = cacheBind(options, workspace);
  if (!Number.isSafeInteger(options.statusFd) || options.statusFd < 3) {
    throw new RangeError(`statusFd must be an integer of at least 3, got ${options.statusFd}`);
  }
  if (
    !Number.isSafeInteger(options.seccompFd) ||
    options.seccompFd < 3 ||
    options.seccompFd === options.statusFd
  ) {
    throw new RangeError(
      `seccompFd must be an integer of at least 3 other than statusFd, got ${options.seccompFd}`,
    );
  }
  if (options.command.length === 0) throw new RangeError("command must name a program");

  const args = [
    ["--ro-bind", "/", "/"],
    ["--dev", "/dev"],
    ["--proc", "/proc"],
    // Cover the fresh procfs: read-only /proc/sys, masked /proc/kcore, /sys/firmware... (runc's).
    ...options.procMasks,
    // Hides host UNIX sockets (docker.sock, D-Bus) and other users' temp files.
    ["--tmpfs", "/tmp"],
    ["--tmpfs", "/run"],
    // The package cache, on the private /tmp: writable, and the person's own caches stay read-only.
    cache,
    ...hidden.flatMap((path) => [
      ["--tmpfs", path],
      ["--remount-ro", path],
    ]),
    ...maskedFiles.map((path) => ["--ro-bind", options.maskSource ?? "", path]),
    ["--bind", workspace, workspace],
    ...options.readOnlyPaths.map((readOnly) => ["--ro-bind", readOnly, readOnly]),
    ["--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts"],
    options.network ? [] : ["--unshare-net"],
    // Without it a root caller keeps CAP_SYS_ADMIN in the namespace and can remount / read-write.
    ["--cap-drop", "ALL"],
    ["--clearenv"],
    ...Object.entries(options.environment).map(([name, value]) => [
      "--setenv",
      name,
      TEMP_NAMES.has(name) ? SANDBOX_TEMP : value,
    ]),
    ["--die-with-parent"],
    // A new session has no controlling terminal: no TIOCSTI keystrokes into the person's shell.
    ["--new-session"],
    ["--chdir", cwd],
    ["--json-status-fd", String(options.statusFd)],
    // Applied by bwrap after every mount, right before it executes the command.
    ["--seccomp", String(options.seccompFd)],
    ["--", ...options.command],
  ];
  return args.flat();
}

function cacheBind(options: BubblewrapArgsOptions, workspace: string): string[] {
  const { cacheDirectory, cacheMount } = options;
  if (cacheDirectory === undefined) return [];
  assertApart(cacheDirectory, workspace);
  if (cacheMount === undefined || !isNormalAbsolute(cacheMount) || !isInside(cacheMount, "/tmp")) {
    throw new SandboxSetupError(`The sandbox cache must be mounted under /tmp, not ${cacheMount}`);
  }
  const stores = (options.keptStores ?? []).flatMap(({ source, at }) => {
    if (
      !isNormalAbsolute(source) ||
      !isInside(source, cacheDirectory) ||
      source === cacheDirectory
    ) {
      throw new SandboxSetupError(`The sandbox's kept store is outside its cache: ${source}`);
    }
    if (!isNormalAbsolute(at) || !isInside(at, "/tmp") || isInside(at, cacheMount)) {
      throw new SandboxSetupError(`The sandbox's kept store must be mounted under /tmp: ${at}`);
    }
    return ["--bind", source, at];
  });
  const perCommand = (options.perCommandInCache ?? []).flatMap((path) => {
    if (!isNormalAbsolute(path) || !isInside(path, cacheMount) || path === cacheMount) {
      throw new SandboxSetupError(`The sandbox can only reset a folder inside its cache: ${path}`);
    }
    return ["--tmpfs", path];
  });
  return ["--bind", cacheDirectory, cacheMount, ...stores, ...perCommand];
}

function assertWorkspace(workspace: string, home: string | undefined): void {
  if (!isNormalAbsolute(workspace)) {
    throw new SandboxSetupError(
      `The sandbox workspace must be an absolute real path: ${workspace}`,
    );
  }
  switch (unsafeWorkspace(workspace, home, "linux")) {
    case undefined:
      return;
    case "root":
      throw new SandboxWorkspaceError(
        "The sandbox refuses to make / writable: run the agent in a project directory",
      );
    case "home":
    case "above-home":
      throw new SandboxWorkspaceError(
        `The sandbox refuses to make ${workspace} writable: it ${
          home === workspace ? "is" : "contains"
        } the home directory; run the agent in a project directory`,
      );
  }
}

function assertInside(candidate: string, workspace: string, what: string): void {
  if (!isNormalAbsolute(candidate) || !isInside(candidate, workspace)) {
    throw new SandboxSetupError(`The sandbox ${what} is outside the workspace: ${candidate}`);
  }
}

/** A hidden path must not hold the workspace nor lie in it: one mount would undo the other. */
function assertApart(hidden: string, workspace: string): void {
  if (!isNormalAbsolute(hidden) || isInside(hidden, workspace) || isInside(workspace, hidden)) {
    throw new SandboxSetupError(`The sandbox cannot hide ${hidden}: it overlaps the workspace`);
  }
}

function isNormalAbsolute(candidate: string): boolean {
  return path.posix.isAbsolute(candidate) && path.posix.normalize(candidate) === candidate;
}

/** bwrap runs on Linux only: POSIX paths, compared case-sensitively on every host. */
function isInside(candidate: string, parent: string): boolean {
  return isWithinRoot(parent, candidate, "linux");
}
