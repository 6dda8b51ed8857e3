/**
 * Where AGENTS.md files are looked for, most general first: the person's own file, then the root
 * of the git repository that holds the workspace and each directory from there down to the
 * workspace, then the workspace root and each directory from there down to where the agent was
 * started (nearest last, so its rules come last and win). A start directory outside the workspace
 * adds nothing below the root. A repository whose root is the home directory or above it (a
 * dotfiles repository) is no project: nothing above the workspace is then read.
 */
import { lstatSync, realpathSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { isWithinRoot } from "../filesystem/index.js";

export const INSTRUCTIONS_FILE = "AGENTS.md";

export interface InstructionPlace {
  /** Absolute path of the file. */
  readonly path: string;
  /** How the system prompt and the status line name it: workspace-relative, or `~/…`. */
  readonly label: string;
  /** The personal file is the person's own: a link to it is followed (dotfile managers). */
  readonly personal: boolean;
  /**
   * Above the workspace, in the git repository holding it: read only when the repository's root,
   * the file's directory and the file are the person's or root's (owner-check.ts).
   */
  readonly repository?: { readonly root: string; readonly rootLabel: string };
}

export interface PlaceOptions {
  /** The workspace's real path. */
  readonly workspace: string;
  /** Where the agent was started (the process's current directory). */
  readonly startDirectory: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly platform: NodeJS.Platform;
  readonly home: string;
}

export function instructionPlaces(options: PlaceOptions): InstructionPlace[] {
  const personal = personalPlace(options);
  return [
    ...(personal === undefined ? [] : [personal]),
    ...repositoryPlaces(options),
    ...workspacePlaces(options),
  ];
}

/**
 * The AGENTS.md files from the enclosing git repository's root down to the workspace's parent,
 * labelled from the workspace (`../AGENTS.md`); none when the workspace is the root, or is in no
 * repository.
 */
function repositoryPlaces(options: PlaceOptions): InstructionPlace[] {
  const { workspace } = options;
  const root = repositoryRootAbove(workspace);
  if (root === undefined || isAtOrAboveHome(root, options.home)) return [];
  const places: InstructionPlace[] = [];
  const repository = { root, rootLabel: relative(workspace, root).split(sep).join("/") };
  for (let directory = dirname(workspace); ; directory = dirname(directory)) {
    const path = join(directory, INSTRUCTIONS_FILE);
    places.unshift({
      path,
      label: relative(workspace, path).split(sep).join("/"),
      personal: false,
      repository,
    });
    if (directory === root || dirname(directory) === directory) break;
  }
  return places;
}

/** The nearest directory strictly above `workspace` holding `.git` (a directory, or a worktree's file). */
function repositoryRootAbove(workspace: string): string | undefined {
  if (hasGit(workspace)) return undefined;
  for (let directory = dirname(workspace); ; directory = dirname(directory)) {
    if (hasGit(directory)) return directory;
    if (dirname(directory) === directory) return undefined;
  }
}

function hasGit(directory: string): boolean {
  try {
    const stats = lstatSync(join(directory, ".git"));
    return stats.isDirectory() || stats.isFile();
  } catch {
    return false;
  }
}

function isAtOrAboveHome(directory: string, home: string): boolean {
  if (home === "") return false;
  let real = home;
  try {
    real = realpathSync.native(home);
  } catch {
    // the home as given
  }
  return isWithinRoot(directory, real);
}

/** `%APPDATA%\agent-harness\AGENTS.md` on Windows; elsewhere under $XDG_CONFIG_HOME or ~/.config. */
function personalPlace(options: PlaceOptions): InstructionPlace | undefined {
  const { env, platform, home } = options;
  const base =
    platform === "win32"
      ? nonEmpty(env.APPDATA)
      : (absolute(env.XDG_CONFIG_HOME) ?? (home === "" ? undefined : join(home, ".config")));
  if (base === undefined) return undefined;
  const path = join(base, "agent-harness", INSTRUCTIONS_FILE);
  const fromHome = home === "" ? undefined : relative(home, path);
  const label =
    fromHome !== undefined && !fromHome.startsWith("..") && !fromHome.startsWith(sep)
      ? `~/${fromHome.split(sep).join("/")}`
      : path;
  return { path, label, personal: true };
}

function workspacePlaces(options: PlaceOptions): InstructionPlace[] {
  const { workspace } = options;
  let start: string;
  try {
    start = realpathSync.native(options.startDirectory);
  } catch {
    start = workspace;
  }
  const below = isWithinRoot(workspace, start)
    ? relative(workspace, start)
        .split(sep)
        .filter((part) => part !== "")
    : [];
  const places: InstructionPlace[] = [];
  for (let depth = 0; depth <= below.length; depth += 1) {
    const parts = below.slice(0, depth);
    places.push({
      path: join(workspace, ...parts, INSTRUCTIONS_FILE),
      label: [...parts, INSTRUCTIONS_FILE].join("/"),
      personal: false,
    });
  }
  return places;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}

/** The XDG spec ignores a relative XDG_CONFIG_HOME. */
function absolute(value: string | undefined): string | undefined {
  const given = nonEmpty(value);
  return given?.startsWith("/") === true ? given : undefined;
}
