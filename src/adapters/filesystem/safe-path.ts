/**
 * `safePath`: the one workspace boundary every file tool and the P03 write check share. Syntax is
 * checked first without touching the disk; then real paths decide, so a symlink or junction that
 * leads outside is caught wherever it sits on the path.
 */
import { lstatSync, readlinkSync, realpath, realpathSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, parse, relative, sep } from "node:path";
import { promisify } from "node:util";
import { WorkspaceFileError } from "../../core/ports/filesystem.js";
import { childPath } from "./child-path.js";
import { errorCode, pathTooLong } from "./fs-errors.js";
import { gitDelegatedPathsAround, type GitDelegatedPath } from "./git-delegated-paths.js";
import { findGitLayout } from "./git-directories.js";
import { HARNESS_DIRECTORY } from "./output-files.js";
import { isGitDirectoryName } from "./git-names.js";
import { walkWithoutLinks } from "./link-free-walk.js";
import { lstatOnce, type Lstat } from "./lstat-once.js";
import { classifyWorkspacePath } from "./workspace-path-syntax.js";

export { classifyWorkspacePath, type PathClassification } from "./workspace-path-syntax.js";

/** Same bound as Linux's own symlink resolution (ELOOP after 40). */
export const MAX_SYMLINK_HOPS = 40;

/**
 * The real path the way the boundary sees it; every adapter that compares with it uses this one.
 * `.native` resolves junctions, subst drives and 8.3 short names (`RUNNER~1`) on Windows.
 */
export const realpathNative: (path: string) => Promise<string> = promisify(realpath.native);

/**
 * The boundary's own look-ups are synchronous: an lstat or realpath costs a few µs on
 * the main thread and ~70–100 µs as a thread-pool round trip, and a write decision makes several.
 * None of them opens a file, so none can block on a FIFO or a device.
 */
const realpathNativeSync: (path: string) => string = realpathSync.native;

/**
 * What a boundary that lives for the run may remember between decisions (see
 * NodeWorkspaceWriteBoundary): never where a path leads, only the workspace's own real path and
 * git's config while its files are unchanged. By default nothing is remembered.
 */
export interface BoundaryMemory {
  /** The workspace's real path. */
  readonly realRoot: (workspace: string) => string;
  /** What git delegates to for the repositories around `directory` (git-delegated-paths.ts). */
  readonly delegatedAround: (directory: string, lstat: Lstat) => readonly GitDelegatedPath[];
}

const REMEMBERS_NOTHING: BoundaryMemory = Object.freeze({
  realRoot: realpathNativeSync,
  delegatedAround: (directory: string, lstat: Lstat) =>
    gitDelegatedPathsAround(directory, undefined, lstat),
});

/**
 * Returns the absolute real path `path` names inside `workspace` (the part that does not exist yet
 * is appended as written). Throws `WorkspaceFileError` (`invalid_path`, `path_escape`) for a path
 * the model may not use (a name over the platform's limit included), and rethrows any other
 * failure so callers fail closed.
 */
export function safePath(workspace: string, path: string): Promise<string> {
  return settle(() => resolveInWorkspace(workspace, path).target);
}

/**
 * The boundary's look-ups are synchronous but its callers await a promise; a refusal
 * still arrives as a rejection, never as a throw from the call itself.
 */
function settle<T>(work: () => T): Promise<T> {
  return new Promise((resolve) => {
    resolve(work());
  });
}

/** Why a write is refused as `protected_path`; the chapter-3 boundary names the kind. */
export type ProtectedKind = "git-metadata" | "harness-file" | "host-config";

/** A `protected_path` refusal that also says what was protected. */
export class ProtectedPathError extends WorkspaceFileError {
  constructor(
    readonly kind: ProtectedKind,
    message: string,
  ) {
    super("protected_path", message);
  }
}

/**
 * `safePath` for a write: also refuses (`protected_path`) git metadata and the harness's own
 * files. Git metadata is anything inside a `.git` directory, under any of its aliases, whether the
 * model named it, a symlink leads there, or it is the target of a symlinked `.git`; and anything
 * inside a directory git would take for a git dir by its layout (a bare repository, a `gitdir:`
 * file's target), or a write that would give a directory that layout. A planted hook or
 * `core.fsmonitor` would run on the host at the person's next git command. So would a worktree
 * file the repository's config delegates to (`core.hooksPath`, an include, a hook manager's
 * config: git-delegated-paths.ts), refused the same way. `harnessFiles` are
 * absolute real paths (the audit log, a recording, the agent's own install: files or directories,
 * protected with all they hold). Reading any of them stays allowed.
 */
export function safeWritablePath(
  workspace: string,
  path: string,
  harnessFiles: readonly string[] = [],
  hostFiles: readonly HostLoadedPath[] = [],
): Promise<string> {
  return settle(() =>
    writableTarget(workspace, path, { harnessFiles, hostFiles }, REMEMBERS_NOTHING),
  );
}

/** A file or folder the host loads or runs later (host-loaded-paths.ts), as the boundary keeps it. */
export interface HostLoadedPath {
  /** Absolute path, real as far as it exists; protected with everything below it. */
  readonly path: string;
  /** What it is and why it matters, for the refusal. */
  readonly why: string;
  /**
   * Only the executable files below it are protected (a relative PATH entry such as `.`: the
   * shell runs a file found there by name only if it may execute it). Never bound by the sandbox.
   */
  readonly executablesOnly?: boolean;
}

/**
 * The host's later-loaded paths, asked for when a write is first checked: working them out lists
 * every folder on PATH and follows each link in it (~500 in a /usr/bin, tens of ms), which no
 * first request should wait for. The caller remembers the answer (bootstrap's `hostFilesOnce`).
 */
export type HostFilesSource = () => readonly HostLoadedPath[];

/** What a write may not change besides git metadata: the harness's files and the host's. */
export interface WriteProtection {
  /** Absolute real paths of the harness's own files and directories. */
  readonly harnessFiles: readonly string[];
  /** What the host loads or runs later (host-loaded-paths.ts), by real path. */
  readonly hostFiles?: readonly HostLoadedPath[];
}

/**
 * `safePath` and `safeWritablePath` without the promise, for a caller that must answer now (the
 * P04 policy's path check). Throws exactly what they reject with.
 */
export function resolvedTargetNow(
  workspace: string,
  path: string,
  forWriting: WriteProtection | undefined,
  memory: BoundaryMemory = REMEMBERS_NOTHING,
): string {
  return forWriting === undefined
    ? resolveInWorkspace(workspace, path, memory.realRoot).target
    : writableTarget(workspace, path, forWriting, memory);
}

function writableTarget(
  workspace: string,
  path: string,
  { harnessFiles, hostFiles = [] }: WriteProtection,
  memory: BoundaryMemory,
): string {
  const { root, segments, target, missing } = resolveInWorkspace(workspace, path, memory.realRoot);
  // Two checks below ask about the same `.git` entries: each is looked up once per decision.
  const lstat = lstatOnce();
  const below = namesBelow(root, target);
  if (
    segments.some(isGitDirectoryName) ||
    below.some(isGitDirectoryName) ||
    isInsideLinkedGit(root, below.slice(0, Math.max(0, below.length - missing)), target, lstat)
  ) {
    throw new ProtectedPathError(
      "git-metadata",
      `path is inside .git, which the agent may not change: ${path}`,
    );
  }
  // A harness path may be a directory (`.agent`, the agent's own dist/): all below it is protected.
  const owner = harnessFiles.find((file) => isWithinRoot(file, target));
  if (owner !== undefined) {
    throw new ProtectedPathError(
      "harness-file",
      basename(owner) === HARNESS_DIRECTORY
        ? `path is inside ${HARNESS_DIRECTORY}, where the harness keeps saved command outputs, which the agent may not change: ${path}`
        : `path is one of the harness's own files (its audit log, recording or install), which the agent may not change: ${path}`,
    );
  }
  // The host's own config wherever it is (a dotfiles repository as the workspace, a link from
  // ~/.gitconfig into it): compared by real path, so a link either way is caught.
  const hostFile = hostFiles.find(
    (file) =>
      isWithinRoot(file.path, target) && (file.executablesOnly !== true || isExecutable(target)),
  );
  if (hostFile !== undefined) {
    throw new ProtectedPathError(
      "host-config",
      `path is ${hostFile.why}, which the agent may not change: ${path}`,
    );
  }
  const layout = findGitLayout(root, below);
  if (layout !== undefined) {
    const name = relative(root, layout.directory) || "the workspace";
    throw new ProtectedPathError(
      "git-metadata",
      layout.kind === "is"
        ? `path is inside a git directory (${name}), which the agent may not change: ${path}`
        : `path would make ${name} a git directory, which the agent may not create: ${path}`,
    );
  }
  // Asked at every write, not once per run: the answer follows the config as it is now (a
  // command run with `--sandbox off` may have changed it). A boundary's memory rereads the
  // config only when one of its files changed, and resolves the paths it names every time.
  const delegated = memory
    .delegatedAround(dirname(target), lstat)
    .find((candidate) => isWithinRoot(candidate.path, target));
  if (delegated !== undefined) {
    throw new ProtectedPathError(
      "git-metadata",
      `path is a file git runs or reads as config on the person's machine at the next git command (${delegated.why}), which the agent may not change: ${path}`,
    );
  }
  return target;
}

/** A regular file some execute bit is set on (a write keeps the mode of the file it replaces). */
function isExecutable(target: string): boolean {
  const stats = statSync(target, { throwIfNoEntry: false });
  return stats?.isFile() === true && (stats.mode & 0o111) !== 0;
}

/** The real path's names below the root, worked out once per call for every check. */
function namesBelow(root: string, target: string): string[] {
  const prefix = root.endsWith(sep) ? root : root + sep;
  // The usual case, the root's own spelling followed by names, without `relative`'s normalising.
  const rest = target.startsWith(prefix) ? target.slice(prefix.length) : relative(root, target);
  return rest.split(sep).filter((part) => part !== "");
}

/** The syntax check, the workspace's real path and the target, each worked out once per call. */
function resolveInWorkspace(
  workspace: string,
  path: string,
  realRoot: (workspace: string) => string = realpathNativeSync,
): { root: string; segments: readonly string[]; target: string; missing: number } {
  const syntax = classifyWorkspacePath(path);
  if (!syntax.ok) throw new WorkspaceFileError(syntax.code, syntax.message);
  const root = realRoot(workspace);
  try {
    // No link on the way is the usual case and costs an lstat per name; a link anywhere gets the
    // full resolution, which follows it and checks where it leads.
    const { target, missing } =
      walkWithoutLinks(root, syntax.segments) ??
      resolveWithin(root, join(root, ...syntax.segments), path);
    return { root, segments: syntax.segments, target, missing };
  } catch (error) {
    switch (errorCode(error)) {
      case "ELOOP":
        throw new WorkspaceFileError(
          "invalid_path",
          `path has too many levels of symbolic links: ${path}`,
        );
      case "ENAMETOOLONG":
        throw pathTooLong(path);
      case undefined:
      default:
        throw error;
    }
  }
}

/**
 * A `.git` that is a symlink (to `gitdata`, say) makes git use its target: so `gitdata/config` is
 * git's config too. Checks the `.git` beside every real directory from the root down to `target`
 * that exists (`existing`, its names below the root: nothing sits in a directory that does not).
 */
function isInsideLinkedGit(
  root: string,
  existing: readonly string[],
  target: string,
  lstat: Lstat,
): boolean {
  let directory = root;
  for (let index = 0; index <= existing.length; index += 1) {
    if (index > 0) directory = childPath(directory, existing[index - 1] ?? "");
    const gitTarget = linkedGitTarget(childPath(directory, ".git"), lstat);
    if (gitTarget !== undefined && isWithinRoot(gitTarget, target)) return true;
  }
  return false;
}

function linkedGitTarget(candidate: string, lstat: Lstat): string | undefined {
  try {
    // Missing is the usual case: no exception built for it.
    if (lstat(candidate)?.isSymbolicLink() !== true) return undefined;
    return realpathNativeSync(candidate);
  } catch (error) {
    const code = errorCode(error);
    // Nothing there, a dangling link (git cannot use it either), a file on the way, or a name
    // that cannot exist (the write then fails as too long).
    if (code === "ENOENT" || code === "ENOTDIR" || code === "ENAMETOOLONG") return undefined;
    throw error;
  }
}

/**
 * Component-wise containment, so `/work/ws-evil` is not inside `/work/ws`. Case-insensitive where
 * the usual filesystems are (Windows, macOS).
 */
export function isWithinRoot(
  root: string,
  candidate: string,
  platform: NodeJS.Platform = process.platform,
): boolean {
  const separators = platform === "win32" ? /[\\/]+/u : /\/+/u;
  const fold = platform === "win32" || platform === "darwin";
  const split = (value: string): string[] =>
    value
      .split(separators)
      .filter((part) => part !== "")
      .map((part) => (fold ? part.toLowerCase() : part));
  const rootParts = split(root);
  const candidateParts = split(candidate);
  if (candidateParts.length < rootParts.length) return false;
  return rootParts.every((part, index) => candidateParts[index] === part);
}

/** `target` is the real path; its last `missing` names do not exist (yet). */
function resolveWithin(
  root: string,
  start: string,
  path: string,
): { target: string; missing: number } {
  let candidate = start;
  for (let hop = 0; hop <= MAX_SYMLINK_HOPS; hop += 1) {
    const { existing, missing, nextMayBeLink } = deepestExistingAncestor(candidate);
    if (!isWithinRoot(root, existing)) throw escapes(path);
    const [next, ...rest] = missing;
    if (next === undefined) return { target: existing, missing: 0 };
    const target = nextMayBeLink ? danglingLinkTarget(join(existing, next)) : undefined;
    if (target === undefined) {
      return { target: join(existing, ...missing), missing: missing.length };
    }
    // A link to a missing target: creating the file would follow it, so check where it leads.
    candidate = join(resolveLinkTarget(existing, target, path), ...rest);
  }
  throw new WorkspaceFileError(
    "invalid_path",
    `path has too many levels of symbolic links: ${path}`,
  );
}

/**
 * The deepest ancestor of `absolute` (itself included) that resolves, as a real path, and the
 * names below it. `nextMayBeLink` is false when lstat found nothing at the first missing name, so
 * no dangling link can sit there and the caller need not look again.
 */
function deepestExistingAncestor(absolute: string): {
  existing: string;
  missing: string[];
  nextMayBeLink: boolean;
} {
  const missing: string[] = [];
  let current = absolute;
  let nextMayBeLink = false;
  for (;;) {
    const parent = dirname(current);
    let found = false;
    try {
      // lstat first: it answers "missing" without an exception (a failed realpath costs ~10 µs
      // to build one), and what lstat cannot find, realpath cannot resolve either.
      found = lstatSync(current, { throwIfNoEntry: false }) !== undefined;
      if (found) return { existing: realpathNativeSync(current), missing, nextMayBeLink };
      if (parent === current) throw new Error(`the filesystem root is missing: ${current}`);
    } catch (error) {
      const code = errorCode(error);
      if ((code !== "ENOENT" && code !== "ENOTDIR") || parent === current) throw error;
    }
    // Found by lstat but not resolvable by realpath: a dangling link, or a path through one.
    nextMayBeLink = found;
    missing.unshift(basename(current));
    current = parent;
  }
}

function danglingLinkTarget(absolute: string): string | undefined {
  try {
    const stats = lstatSync(absolute, { throwIfNoEntry: false });
    return stats?.isSymbolicLink() === true ? readlinkSync(absolute) : undefined;
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
}

/**
 * Follows a link target the way the kernel would: `..` applies to the real directory reached so
 * far, never lexically (a lexical `sub/..` would skip a symlinked `sub`).
 */
function resolveLinkTarget(directory: string, target: string, path: string): string {
  const separators = sep === "\\" ? /[\\/]+/u : /\/+/u;
  const absolute = isAbsolute(target);
  const root = absolute ? parse(target).root : "";
  let current = absolute ? root : directory;
  for (const part of target.slice(root.length).split(separators)) {
    if (part === "" || part === ".") continue;
    if (part !== "..") {
      current = join(current, part);
      continue;
    }
    try {
      current = dirname(realpathNativeSync(current));
    } catch {
      throw new WorkspaceFileError(
        "path_escape",
        `path goes through a symbolic link that cannot be resolved: ${path}`,
      );
    }
  }
  return current;
}

function escapes(path: string): WorkspaceFileError {
  return new WorkspaceFileError("path_escape", `path resolves outside the workspace: ${path}`);
}
