/**
 * `safePath`: the one workspace boundary every file tool and the P03 write check share. Syntax is
 * checked first without touching the disk; then real paths decide, so a symlink or junction that
 * leads outside is caught wherever it sits on the path.
 */
import { realpath } from "node:fs";
import { lstat, readlink } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, parse, relative, sep } from "node:path";
import { promisify } from "node:util";
import { WorkspaceFileError } from "../../core/filesystem.js";
import { errorCode, pathTooLong } from "./fs-errors.js";
import { findGitLayout } from "./git-directories.js";
import { isGitDirectoryName } from "./git-names.js";
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
 * Returns the absolute real path `path` names inside `workspace` (the part that does not exist yet
 * is appended as written). Throws `WorkspaceFileError` (`invalid_path`, `path_escape`) for a path
 * the model may not use (a name over the platform's limit included), and rethrows any other
 * failure so callers fail closed.
 */
export async function safePath(workspace: string, path: string): Promise<string> {
  return (await resolveInWorkspace(workspace, path)).target;
}

/** Why a write is refused as `protected_path`; the chapter-3 boundary names the kind. */
export type ProtectedKind = "git-metadata" | "harness-file";

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
 * `core.fsmonitor` would run on the host at the person's next git command. `harnessFiles` are
 * absolute real paths (the audit log, a recording, the agent's own install: files or directories,
 * protected with all they hold). Reading any of them stays allowed.
 */
export async function safeWritablePath(
  workspace: string,
  path: string,
  harnessFiles: readonly string[] = [],
): Promise<string> {
  const { root, segments, target } = await resolveInWorkspace(workspace, path);
  if (
    segments.some(isGitDirectoryName) ||
    isGitPath(root, target) ||
    (await isInsideLinkedGit(root, target))
  ) {
    throw new ProtectedPathError(
      "git-metadata",
      `path is inside .git, which the agent may not change: ${path}`,
    );
  }
  // A harness path may be a directory (the agent's own dist/): everything below it is protected.
  if (harnessFiles.some((file) => isWithinRoot(file, target))) {
    throw new ProtectedPathError(
      "harness-file",
      `path is one of the harness's own files (its audit log, recording or install), which the agent may not change: ${path}`,
    );
  }
  const layout = await findGitLayout(root, target);
  if (layout !== undefined) {
    const name = relative(root, layout.directory) || "the workspace";
    throw new ProtectedPathError(
      "git-metadata",
      layout.kind === "is"
        ? `path is inside a git directory (${name}), which the agent may not change: ${path}`
        : `path would make ${name} a git directory, which the agent may not create: ${path}`,
    );
  }
  return target;
}

/** The syntax check, the workspace's real path and the target, each worked out once per call. */
async function resolveInWorkspace(
  workspace: string,
  path: string,
): Promise<{ root: string; segments: readonly string[]; target: string }> {
  const syntax = classifyWorkspacePath(path);
  if (!syntax.ok) throw new WorkspaceFileError(syntax.code, syntax.message);
  const root = await realpathNative(workspace);
  try {
    const target = await resolveWithin(root, join(root, ...syntax.segments), path);
    return { root, segments: syntax.segments, target };
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

/** A segment of `target` below `root` that names `.git`. */
function isGitPath(root: string, target: string): boolean {
  return relative(root, target).split(sep).some(isGitDirectoryName);
}

/**
 * A `.git` that is a symlink (to `gitdata`, say) makes git use its target: so `gitdata/config` is
 * git's config too. Checks the `.git` beside every real directory from the root down to `target`.
 */
async function isInsideLinkedGit(root: string, target: string): Promise<boolean> {
  let directory = root;
  for (const segment of ["", ...relative(root, target).split(sep)]) {
    directory = join(directory, segment);
    const gitTarget = await linkedGitTarget(join(directory, ".git"));
    if (gitTarget !== undefined && isWithinRoot(gitTarget, target)) return true;
  }
  return false;
}

async function linkedGitTarget(candidate: string): Promise<string | undefined> {
  try {
    if (!(await lstat(candidate)).isSymbolicLink()) return undefined;
    return await realpathNative(candidate);
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

async function resolveWithin(root: string, start: string, path: string): Promise<string> {
  let candidate = start;
  for (let hop = 0; hop <= MAX_SYMLINK_HOPS; hop += 1) {
    const { existing, missing } = await deepestExistingAncestor(candidate);
    if (!isWithinRoot(root, existing)) throw escapes(path);
    const [next, ...rest] = missing;
    if (next === undefined) return existing;
    const target = await danglingLinkTarget(join(existing, next));
    if (target === undefined) return join(existing, ...missing);
    // A link to a missing target: creating the file would follow it, so check where it leads.
    candidate = join(await resolveLinkTarget(existing, target, path), ...rest);
  }
  throw new WorkspaceFileError(
    "invalid_path",
    `path has too many levels of symbolic links: ${path}`,
  );
}

async function deepestExistingAncestor(
  absolute: string,
): Promise<{ existing: string; missing: string[] }> {
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      return { existing: await realpathNative(current), missing };
    } catch (error) {
      const code = errorCode(error);
      const parent = dirname(current);
      if ((code !== "ENOENT" && code !== "ENOTDIR") || parent === current) throw error;
      missing.unshift(basename(current));
      current = parent;
    }
  }
}

async function danglingLinkTarget(absolute: string): Promise<string | undefined> {
  try {
    const stats = await lstat(absolute);
    return stats.isSymbolicLink() ? await readlink(absolute) : undefined;
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
async function resolveLinkTarget(directory: string, target: string, path: string): Promise<string> {
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
      current = dirname(await realpathNative(current));
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
