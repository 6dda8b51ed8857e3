/**
 * The one list of what the host loads or runs later, wherever it lies: a write there changes what
 * runs at the person's next login, shell, git command or agent run. The file tools refuse them in
 * every chapter and the sandbox binds those inside the workspace read-only; each is compared by
 * real path, so a workspace that is a dotfiles repository (`~/.gitconfig` a link into it) is
 * covered. docs/sandbox.md lists them in one table.
 */
import { homeDirectory } from "../adapters/home/index.js";
import { join } from "node:path";
import {
  globalConfigDelegates,
  globalGitConfigFiles,
  hostLoadedPaths,
  isWithinRoot,
  sandboxCoverage,
  type HostFilesSource,
  type HostLoadedPath,
  type NamedHostPath,
} from "../adapters/filesystem/index.js";
import type { SandboxHostFiles } from "../adapters/sandbox/index.js";
import { settingsPath } from "../adapters/settings/index.js";
import { SHELL_STARTUP_FILES } from "../adapters/shell/index.js";
import type { Host } from "./host.js";

/**
 * Read by a login or interactive shell (SHELL_STARTUP_FILES), or by a login or graphical session
 * (the rest): what they hold runs at the person's next shell or login.
 */
export const SESSION_STARTUP_FILES = Object.freeze([
  ...SHELL_STARTUP_FILES,
  ".logout",
  ".inputrc",
  ".xprofile",
  ".xinitrc",
  ".xsession",
  ".xsessionrc",
  ".pam_environment",
  ".config/environment.d",
  ".config/autostart",
  ".config/systemd",
]);

/** The same, for every account on the machine. */
const SYSTEM_STARTUP_FILES = Object.freeze([
  "/etc/profile",
  "/etc/profile.d",
  "/etc/bash.bashrc",
  "/etc/bashrc",
  "/etc/zshenv",
  "/etc/zsh",
  "/etc/environment",
]);

/** The home directory the host means: on Windows the profile folder, elsewhere the one home rule. */
export function hostHome({ env, platform }: Host): string {
  const profile = platform === "win32" ? env.USERPROFILE : undefined;
  return profile !== undefined && profile.trim() !== "" ? profile : homeDirectory(env);
}

/** The absolute folders of PATH, in order (a relative entry names whatever folder a shell is in). */
export function pathFolders(host: Host): string[] {
  const absolute = absolutePattern(host.platform);
  return pathEntries(host).filter((entry) => absolute.test(entry));
}

/**
 * PATH's relative entries, as written (`""` for an empty one): each names a folder relative to
 * wherever the shell is, `.` and an empty entry that folder itself, so `bin` in a project makes
 * its `bin/` a folder of programs while you work there.
 */
export function relativePathEntries(host: Host): string[] {
  const absolute = absolutePattern(host.platform);
  return [...new Set(pathEntries(host).filter((entry) => !absolute.test(entry)))];
}

/** A relative PATH entry that names the folder the shell is in (`.`, `./`, an empty entry). */
export function namesCurrentFolder(entry: string): boolean {
  return entry === "" || /^\.(?:[\\/]+\.?)*[\\/]*$/u.test(entry);
}

function pathEntries({ env, platform }: Host): string[] {
  const key =
    platform === "win32"
      ? (Object.keys(env).find((name) => name.toUpperCase() === "PATH") ?? "PATH")
      : "PATH";
  const separator = platform === "win32" ? ";" : ":";
  const value = env[key];
  if (value === undefined) return [];
  return value.split(separator).map((entry) => entry.trim());
}

function absolutePattern(platform: NodeJS.Platform): RegExp {
  return platform === "win32" ? /^(?:[A-Za-z]:[\\/]|[\\/]{2})/u : /^\//u;
}

/** Every path the host loads or runs later, as named, each with why it matters. */
export function namedHostPaths(host: Host): NamedHostPath[] {
  const { env, platform } = host;
  const home = hostHome(host);
  const named: NamedHostPath[] = [];
  const add = (path: string, why: string, programs = false): void => {
    named.push({ path, why, ...(programs ? { programs } : {}) });
  };
  const harnessConfig = join(settingsPath({ env, platform, homeDirectory: home }), "..");
  add(
    harnessConfig,
    `the harness's own settings and personal instructions (${harnessConfig}: settings.json, AGENTS.md), read at every run`,
  );
  const gitConfigs = globalGitConfigFiles({ ...env, HOME: home });
  for (const file of gitConfigs) {
    add(
      file,
      `git's global or system config (${file}): git runs what it names at the next git command`,
    );
  }
  // What those name (an include, core.hooksPath, a script), git runs in every repository.
  for (const { path, why } of globalConfigDelegates({ home, globalConfigs: gitConfigs })) {
    add(path, `git's config in every repository: ${why}`);
  }
  // fish, pwsh and systemd read ~/.config through XDG_CONFIG_HOME when it is set.
  const xdgConfig = env.XDG_CONFIG_HOME?.startsWith("/") === true ? env.XDG_CONFIG_HOME : undefined;
  for (const name of SESSION_STARTUP_FILES) {
    const paths = [join(home, name)];
    if (xdgConfig !== undefined && name.startsWith(".config/")) {
      paths.push(join(xdgConfig, name.slice(".config/".length)));
    }
    for (const path of paths) {
      add(path, `a shell start-up file (${path}): it runs at the person's next login or shell`);
    }
  }
  const zdotdir = env.ZDOTDIR;
  if (zdotdir !== undefined && zdotdir !== "") {
    for (const name of [".zshenv", ".zprofile", ".zshrc", ".zlogin", ".zlogout"]) {
      const path = join(zdotdir, name);
      add(path, `a shell start-up file (${path}): it runs at the person's next shell`);
    }
  }
  if (platform === "win32") {
    for (const folder of ["PowerShell", "WindowsPowerShell"]) {
      const path = join(home, "Documents", folder);
      add(path, `PowerShell's profiles (${path}): they run at the person's next PowerShell`);
    }
  } else {
    for (const path of SYSTEM_STARTUP_FILES) {
      add(path, `a shell start-up file (${path}): it runs at every login or shell on the machine`);
    }
  }
  const ssh = join(home, ".ssh");
  add(ssh, `ssh's keys and config (${ssh}): authorized_keys lets someone in, config runs commands`);
  const npmrc = env.NPM_CONFIG_USERCONFIG ?? env.npm_config_userconfig ?? join(home, ".npmrc");
  add(npmrc, `npm's user config (${npmrc}): npm runs the shell and options it names`);
  // Debian's and Fedora's ~/.profile put these on PATH at the next login if they exist.
  for (const name of ["bin", ".local/bin"]) {
    const path = join(home, name);
    add(
      path,
      `a folder the login shell puts on PATH (${path}): what it holds runs as a command`,
      true,
    );
  }
  for (const folder of pathFolders(host)) {
    add(folder, `a folder on PATH (${folder}): what it holds runs as a command`, true);
  }
  return named;
}

/**
 * `namedHostPaths` by real path, as the boundary and the sandbox compare them, kept only where
 * they meet `workspace` (its real path): inside it, or holding it. No other can be reached by a
 * write that stays in the workspace, and a short list keeps each write decision cheap.
 */
export function hostFiles(host: Host, workspace: string): HostLoadedPath[] {
  const found = hostLoadedPaths(namedHostPaths(host)).filter(
    ({ path }) =>
      isWithinRoot(workspace, path, host.platform) || isWithinRoot(path, workspace, host.platform),
  );
  const relative = relativePathEntries(host);
  // Windows tells programs by extension, not by an execute bit; cmd.exe looks in the current
  // folder first whatever PATH says. Elsewhere a relative entry makes any executable file of the
  // workspace a program the shell may run by name (a link in a `bin/` named by it leads to any).
  if (relative.length === 0 || host.platform === "win32") return found;
  const named = relative.map((entry) => (entry === "" ? "an empty entry" : JSON.stringify(entry)));
  return [
    ...found,
    {
      path: workspace,
      why: `an executable file (your PATH holds the relative ${named.length === 1 ? "entry" : "entries"} ${named.join(", ")}, which ${named.length === 1 ? "names" : "name"} a folder relative to wherever your shell is, so typing the file's name there runs it)`,
      executablesOnly: true,
    },
  ];
}

/**
 * `hostFiles`, worked out at the first ask and kept for the run: following every link of every
 * folder on PATH (a /usr/bin holds ~500) takes tens of ms, so it is done at the first write
 * checked or command planned, or while the model thinks (compose-run), never before the first
 * request. An error then refuses that write or command, as it would have refused the run.
 */
export function hostFilesOnce(host: Host, workspace: string): HostFilesSource {
  let found: readonly HostLoadedPath[] | undefined;
  return () => (found ??= Object.freeze(hostFiles(host, workspace)));
}

/** What a sandboxed command needs of `paths` (hostFilesOnce's), looked at as it is planned. */
export function sandboxHostFiles(
  workspace: string,
  paths: HostFilesSource,
): () => SandboxHostFiles {
  return () => {
    const list = paths();
    return {
      readOnly: hostFilesForSandbox(workspace, list),
      keepUnchanged: hostFilesToKeep(workspace, list),
    };
  };
}

/**
 * What the sandbox binds read-only for `paths` (hostFiles' answer) in `workspace` (its real
 * path): a missing one through its nearest existing folder inside the workspace. Each command
 * also keeps `hostFilesToKeep` as they are.
 */
export function hostFilesForSandbox(workspace: string, paths: readonly HostLoadedPath[]): string[] {
  return sandboxCoverage(workspace, wholePaths(paths));
}

/** Those protected with all they hold: the executables a relative PATH entry reaches are not. */
function wholePaths(paths: readonly HostLoadedPath[]): string[] {
  return paths.filter(({ executablesOnly }) => executablesOnly !== true).map(({ path }) => path);
}

/**
 * Those of `paths` (hostFiles' answer) inside `workspace`, whether they exist now or not: each
 * command decides again which exist (one there at start may be another run's placeholder, gone
 * by the next command), keeps the others from being created (a dangling `~/.gitconfig` link
 * into the workspace), and names any that is not as it was before it.
 */
export function hostFilesToKeep(workspace: string, paths: readonly HostLoadedPath[]): string[] {
  return wholePaths(paths).filter((path) => path !== workspace && isWithinRoot(workspace, path));
}
