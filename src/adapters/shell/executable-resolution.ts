import { realpathSync, statSync, accessSync, constants as fsConstants } from "node:fs";
import path from "node:path";
import { windowsSystemRoot } from "../process/index.js";
import { isWithinRoot } from "../filesystem/index.js";

/**
 * Finds a program (a shell, bwrap) by absolute path. Only PATH entries that are absolute and
 * outside the workspace count: on Windows a bare name is looked up in the child's cwd first, and a
 * relative or workspace PATH entry would let a file the model wrote (`pwsh.exe`, `bash`) run
 * instead of the real one.
 */

export interface FileProbe {
  /** True for an existing regular file this user may execute. */
  isExecutableFile(candidate: string): boolean;
  /** The canonical path, or undefined when it cannot be resolved. */
  realpath(candidate: string): string | undefined;
}

export interface ExecutableLookup {
  /** The harness's own environment: PATH (and PATHEXT) to search. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Absolute workspace path: PATH entries inside it are never searched. */
  readonly workspace: string;
  readonly platform: NodeJS.Platform;
  /** Tests substitute a fake filesystem; production probes the real one. */
  readonly probe?: FileProbe;
}

const DEFAULT_PATHEXT = ".COM;.EXE;.BAT;.CMD";

/** Frozen: shared by every lookup, so no caller may swap a method out for the others. */
export const nodeFileProbe: FileProbe = Object.freeze<FileProbe>({
  isExecutableFile(candidate) {
    try {
      // Most PATH entries lack the program: no error object built for each (~10 µs apiece).
      const stats = statSync(candidate, { throwIfNoEntry: false });
      if (stats?.isFile() !== true) return false;
      if (process.platform !== "win32") accessSync(candidate, fsConstants.X_OK);
      return true;
    } catch {
      return false;
    }
  },
  realpath(candidate) {
    try {
      return realpathSync.native(candidate);
    } catch {
      return undefined;
    }
  },
});

/** The first trustworthy match for a bare program name on PATH, as an absolute path. */
export function resolveExecutable(name: string, lookup: ExecutableLookup): string | undefined {
  const paths = pathApi(lookup.platform);
  if (name === "" || name.includes("/") || name.includes("\\") || name.includes(":")) {
    throw new Error(`Expected a bare program name, got ${JSON.stringify(name)}`);
  }
  const probe = lookup.probe ?? nodeFileProbe;
  const workspaces = workspaceForms(lookup.workspace, probe);
  for (const directory of absolutePathEntries(lookup, workspaces)) {
    // The directory's own real path is checked only once it holds a match: most PATH entries do
    // not, and a realpath of each would cost every lookup a syscall per entry.
    let trusted: boolean | undefined;
    for (const fileName of candidateNames(name, lookup)) {
      const candidate = paths.join(directory, fileName);
      if (!probe.isExecutableFile(candidate)) continue;
      trusted ??= resolvesOutside(directory, workspaces, lookup.platform, probe);
      if (!trusted) break;
      const real = probe.realpath(candidate);
      // A link on PATH that leads into the workspace is as untrustworthy as the workspace itself.
      if (real === undefined || isInsideAny(real, workspaces, lookup.platform)) continue;
      return candidate;
    }
  }
  return undefined;
}

/**
 * A program the person named in their own settings (an MCP server's `command`), as the path to
 * start, or why it may not start: the harness starts it on the host, so nothing the workspace
 * holds may decide what it is. A bare name is looked up as resolveExecutable does; an absolute
 * path must be an executable file outside the workspace, by its name and by its real path; a
 * relative path (`./x`, `bin/x`) is refused, since it names a file in whatever folder the program
 * starts in.
 */
export type ProgramResolution =
  | { readonly found: string }
  | { readonly refused: "relative" | "inside-workspace" | "missing" | "not-on-path" };

export function resolveProgram(command: string, lookup: ExecutableLookup): ProgramResolution {
  if (!/[\\/:]/.test(command)) {
    const found = command === "" ? undefined : resolveExecutable(command, lookup);
    return found === undefined ? { refused: "not-on-path" } : { found };
  }
  if (!isAbsoluteProgram(command, lookup.platform)) return { refused: "relative" };
  const probe = lookup.probe ?? nodeFileProbe;
  const real = probe.isExecutableFile(command) ? probe.realpath(command) : undefined;
  if (real === undefined) return { refused: "missing" };
  const workspaces = workspaceForms(lookup.workspace, probe);
  // A program that links into the workspace is the workspace's, whatever its name.
  const named = pathApi(lookup.platform).normalize(command);
  if (isInsideAny(named, workspaces, lookup.platform)) return { refused: "inside-workspace" };
  if (isInsideAny(real, workspaces, lookup.platform)) return { refused: "inside-workspace" };
  // As named, not its real path: a venv's python finds its environment by the link's own path.
  return { found: command };
}

/**
 * PATH as a program started on the host should get it: only the absolute entries that exist
 * outside the workspace, by name and by real path, so neither the program nor anything it starts
 * by name (`#!/usr/bin/env node`) is found in the workspace. Undefined when there is no PATH.
 */
export function trustedPathValue(lookup: ExecutableLookup): string | undefined {
  if (envValue(lookup.env, "PATH", lookup.platform) === undefined) return undefined;
  const probe = lookup.probe ?? nodeFileProbe;
  const workspaces = workspaceForms(lookup.workspace, probe);
  return absolutePathEntries(lookup, workspaces)
    .filter((directory) => {
      // An entry that does not exist yet could be made later through a link into the workspace.
      const real = probe.realpath(directory);
      return real !== undefined && !isInsideAny(real, workspaces, lookup.platform);
    })
    .join(lookup.platform === "win32" ? ";" : ":");
}

/** Windows: a drive's path (`C:\…`) or a share's (`\\host\…`); `\x` and `C:x` are relative. */
function isAbsoluteProgram(command: string, platform: NodeJS.Platform): boolean {
  if (platform !== "win32") return command.startsWith("/");
  return /^[A-Za-z]:[\\/]/.test(command) || /^[\\/]{2}[^\\/]/.test(command);
}

/**
 * Windows PowerShell 5.1 at its fixed System32 location, which is not always on PATH. Undefined
 * unless the file exists there.
 */
export function resolveWindowsPowerShell(lookup: ExecutableLookup): string | undefined {
  const probe = lookup.probe ?? nodeFileProbe;
  const candidate = windowsPowerShellPath(lookup.env);
  return probe.isExecutableFile(candidate) ? candidate : undefined;
}

function windowsPowerShellPath(env: Readonly<Record<string, string | undefined>>): string {
  return `${windowsSystemRoot(env)}\\System32\\WindowsPowerShell\\v1.0\\powershell.exe`;
}

/** PATH's absolute entries, normalized, that do not lie in the workspace by their own name. */
function absolutePathEntries(lookup: ExecutableLookup, workspaces: readonly string[]): string[] {
  const paths = pathApi(lookup.platform);
  const separator = lookup.platform === "win32" ? ";" : ":";
  const raw = envValue(lookup.env, "PATH", lookup.platform) ?? "";
  const entries: string[] = [];
  for (const piece of raw.split(separator)) {
    // Windows allows quoted entries such as "C:\Program Files\PowerShell\7".
    const entry = lookup.platform === "win32" ? piece.trim().replace(/^"(.*)"$/, "$1") : piece;
    if (entry === "" || !paths.isAbsolute(entry)) continue;
    if (lookup.platform === "win32" && !/^[A-Za-z]:[\\/]/.test(entry)) continue; // no UNC, no `\x`
    const normalized = paths.normalize(entry);
    if (isInsideAny(normalized, workspaces, lookup.platform)) continue;
    entries.push(normalized);
  }
  return entries;
}

/**
 * Whether a PATH entry's real path lies outside the workspace: an entry that is a link into it
 * would let the model swap the program after it was found.
 */
function resolvesOutside(
  directory: string,
  workspaces: readonly string[],
  platform: NodeJS.Platform,
  probe: FileProbe,
): boolean {
  const real = probe.realpath(directory);
  return real === undefined || !isInsideAny(real, workspaces, platform);
}

function candidateNames(name: string, lookup: ExecutableLookup): string[] {
  if (lookup.platform !== "win32") return [name];
  const extensions = (envValue(lookup.env, "PATHEXT", "win32") ?? DEFAULT_PATHEXT)
    .split(";")
    .map((extension) => extension.trim().toLowerCase())
    .filter((extension) => /^\.[a-z0-9]+$/.test(extension));
  const own = path.win32.extname(name).toLowerCase();
  if (own !== "" && extensions.includes(own)) return [name];
  return extensions.map((extension) => `${name}${extension}`);
}

function workspaceForms(workspace: string, probe: FileProbe): string[] {
  const real = probe.realpath(workspace);
  return real === undefined || real === workspace ? [workspace] : [workspace, real];
}

function isInsideAny(
  candidate: string,
  workspaces: readonly string[],
  platform: NodeJS.Platform,
): boolean {
  return workspaces.some((workspace) => isInside(candidate, workspace, platform));
}

/** The boundary's own containment check, on paths resolved the way `platform` resolves them. */
function isInside(candidate: string, parent: string, platform: NodeJS.Platform): boolean {
  const paths = pathApi(platform);
  return isWithinRoot(paths.resolve(parent), paths.resolve(candidate), platform);
}

function envValue(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
  platform: NodeJS.Platform,
): string | undefined {
  if (platform !== "win32") return env[name];
  return Object.entries(env).find(([key]) => key.toUpperCase() === name)?.[1];
}

function pathApi(platform: NodeJS.Platform): path.PlatformPath {
  return platform === "win32" ? path.win32 : path.posix;
}
