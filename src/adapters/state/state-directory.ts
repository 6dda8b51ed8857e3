/**
 * Where the harness keeps what must outlive a process (run journals, approval grants): a directory
 * of the person's own, outside every workspace, so that neither a file tool nor a sandboxed
 * command can write it. Runs are grouped by workspace, one directory each, named by the workspace's
 * real path.
 */
import { createHash } from "node:crypto";
import { lstatSync, realpathSync, type Stats, writeFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { errorCode } from "../filesystem/index.js";
import {
  directoryChain,
  DirectoryChainError,
  makeDirectoryChain,
  plannedRealPath,
} from "./directory-chain.js";
import { ConfigurationError } from "../../core/common/configuration-error.js";

/** The state directory cannot be used: reported before the run, as a configuration error. */
export class StateDirectoryError extends ConfigurationError {
  override readonly name = "StateDirectoryError";
}

export interface StateRootInputs {
  /** `--state-dir`, when given. */
  readonly flag?: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly platform: NodeJS.Platform;
  readonly homeDirectory: string;
}

/**
 * `--state-dir`, else `$AGENT_STATE_DIR`, else the platform's place for state that is not
 * configuration and not cache: `%LOCALAPPDATA%\agent-harness` on Windows, else
 * `$XDG_STATE_HOME/agent-harness` (the XDG spec ignores a relative value), else
 * `~/.local/state/agent-harness`.
 */
export function stateRootPath(inputs: StateRootInputs): string {
  const { flag, env, platform, homeDirectory } = inputs;
  const chosen = nonEmpty(flag) ?? nonEmpty(env.AGENT_STATE_DIR);
  if (chosen !== undefined) return resolve(chosen);
  if (platform === "win32") {
    const local = nonEmpty(env.LOCALAPPDATA);
    if (local !== undefined && isAbsolute(local)) return join(local, APP_NAME);
    return join(homeDirectory, "AppData", "Local", APP_NAME);
  }
  const xdg = nonEmpty(env.XDG_STATE_HOME);
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, APP_NAME);
  return join(homeDirectory, ".local", "state", APP_NAME);
}

export interface WorkspaceState {
  /** The state root's real path. */
  readonly root: string;
  /** This workspace's own directory under the root (real path); journals and grants go here. */
  readonly directory: string;
}

/**
 * Creates (owner-only) and checks the root and this workspace's directory under it. The root must
 * not lie inside the workspace, and the workspace must not lie inside the root: either way one
 * could write the other. `workspace` is the workspace's real path.
 */
export function openWorkspaceState(rootPath: string, workspace: string): WorkspaceState {
  // Checked before anything is made, so a refused state directory leaves nothing behind; and
  // again once it exists and its real path is known for certain.
  refuseOverlap(plannedPath(rootPath, "the state directory"), workspace);
  const root = ensureOwnDirectory(rootPath, "the state directory");
  refuseChangeableAncestors(root);
  refuseOverlap(root, workspace);
  const workspaces = ensureOwnDirectory(join(root, "workspaces"), "the state directory");
  const directory = ensureOwnDirectory(
    join(workspaces, workspaceDirectoryName(workspace)),
    "the workspace's state directory",
  );
  // Written once, for people and for listing: which workspace this directory belongs to.
  writeWorkspaceLabel(directory, workspace);
  return Object.freeze({ root, directory });
}

/** Either inside the other, one could write the other. Both are real paths. */
function refuseOverlap(root: string, workspace: string): void {
  if (isInside(workspace, root)) {
    // Most often `agent` typed in the home directory, which holds the default state directory:
    // the project directory is the likelier fix than moving the state.
    throw new StateDirectoryError(
      `the state directory ${root} overlaps the workspace ${workspace}: run the agent in your project's directory (or give --workspace DIR), or keep the state outside the workspace (--state-dir or AGENT_STATE_DIR)`,
    );
  }
  if (isInside(root, workspace)) {
    throw new StateDirectoryError(
      `the state directory ${root} overlaps the workspace ${workspace}: choose one outside it (--state-dir or AGENT_STATE_DIR)`,
    );
  }
}

/** The real path `path` will have, found without making anything. */
function plannedPath(path: string, role: string): string {
  try {
    return plannedRealPath(directoryChain(path));
  } catch (error) {
    throw chainFailure(error, path, role);
  }
}

function chainFailure(error: unknown, path: string, role: string): unknown {
  if (!(error instanceof DirectoryChainError)) return error;
  const itself = error.path === path;
  if (error.step === "inspect") {
    return new StateDirectoryError(
      itself
        ? `${role} ${path} cannot be inspected (${error.code})`
        : `${role} ${path} lies in ${error.path}, which cannot be inspected (${error.code})`,
    );
  }
  const where = itself ? "" : `: ${error.path}`;
  return new StateDirectoryError(`${role} ${path} cannot be created${where} (${error.code})`);
}

/**
 * Readable and stable: the workspace's folder name for people, then a digest of its whole real
 * path so that two folders of the same name never share runs.
 */
export function workspaceDirectoryName(workspace: string): string {
  const digest = createHash("sha256").update(workspace).digest("hex").slice(0, 16);
  const name =
    basename(workspace)
      .replace(/[^A-Za-z0-9._-]/g, "_")
      .slice(0, 40) || "root";
  return `${name}-${digest}`;
}

/**
 * mkdir (owner-only), then insist on a real directory: a symbolic link or a file in its place is
 * refused, never followed, and on POSIX it must belong to this user and be writable by no one else.
 */
function ensureOwnDirectory(path: string, role: string): string {
  try {
    makeDirectoryChain(directoryChain(path), 0o700);
  } catch (error) {
    throw chainFailure(error, path, role);
  }
  const unreadable = (code: string): string => `${role} ${path} cannot be inspected (${code})`;
  const stats = inspect(path, unreadable);
  if (stats.isSymbolicLink()) {
    throw new StateDirectoryError(`${role} ${path} is a symbolic link; refusing to follow it`);
  }
  if (!stats.isDirectory()) throw new StateDirectoryError(`${role} ${path} is not a directory`);
  if (typeof process.getuid === "function") {
    if (stats.uid !== process.getuid()) {
      throw new StateDirectoryError(`${role} ${path} belongs to another user`);
    }
    if ((stats.mode & 0o022) !== 0) {
      throw new StateDirectoryError(
        `${role} ${path} is writable by other users; make it owner-only (chmod 700)`,
      );
    }
  }
  let real: string;
  try {
    real = realpathSync(path);
  } catch (error) {
    throw new StateDirectoryError(unreadable(errorCode(error) ?? "error"));
  }
  // The name checked above must be the directory returned: one swapped in between is refused.
  const again = inspect(real, unreadable);
  if (again.dev !== stats.dev || again.ino !== stats.ino) {
    throw new StateDirectoryError(`${role} ${path} changed while it was checked`);
  }
  return real;
}

/**
 * Whoever can write a directory above the root can rename the root away and put one of their own
 * in its place after every check, so each directory the root's real path lies in must belong to
 * this user or to root and be writable by no one else: not by others unless sticky (like /tmp,
 * where only an entry's owner may rename it), not by the group unless sticky or the user's own
 * group (user private groups). Links on the way are the person's choice and are resolved: it is
 * where they lead that is checked. POSIX only; Windows has no such bits.
 */
function refuseChangeableAncestors(root: string): void {
  if (typeof process.getuid !== "function" || typeof process.getgid !== "function") return;
  const uid = process.getuid();
  const gid = process.getgid();
  for (let directory = dirname(root); ; directory = dirname(directory)) {
    const stats = inspect(
      directory,
      (code) =>
        `the state directory ${root} lies in ${directory}, which cannot be inspected (${code})`,
    );
    const sticky = (stats.mode & 0o1000) !== 0;
    const safe =
      (stats.uid === uid || stats.uid === 0) &&
      ((stats.mode & 0o002) === 0 || sticky) &&
      ((stats.mode & 0o020) === 0 || sticky || stats.gid === gid);
    if (!safe) {
      throw new StateDirectoryError(
        `the state directory ${root} lies in ${directory}, which other users can change; choose one under directories only you (and root) can write (--state-dir or AGENT_STATE_DIR)`,
      );
    }
    if (dirname(directory) === directory) return;
  }
}

/** lstat, failing as a StateDirectoryError (one line, exit 2) with `message(errno code)`. */
function inspect(path: string, message: (code: string) => string): Stats {
  try {
    return lstatSync(path);
  } catch (error) {
    throw new StateDirectoryError(message(errorCode(error) ?? "error"));
  }
}

function writeWorkspaceLabel(directory: string, workspace: string): void {
  const label = join(directory, "workspace.txt");
  try {
    // Written on a workspace's first run only: after that, one lstat instead of an EEXIST error.
    if (lstatSync(label, { throwIfNoEntry: false }) !== undefined) return;
    // "wx": created once, never through a link; an existing label is left as it is.
    writeFileSync(label, `${workspace}\n`, { flag: "wx", mode: 0o600 });
  } catch (error) {
    if (errorCode(error) !== "EEXIST") {
      throw new StateDirectoryError(
        `the workspace's state directory ${directory} is not writable (${errorCode(error) ?? "error"})`,
      );
    }
  }
}

function isInside(parent: string, child: string): boolean {
  const path = relative(parent, child);
  return path === "" || (!path.startsWith(`..${sep}`) && path !== ".." && !isAbsolute(path));
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}

const APP_NAME = "agent-harness";
