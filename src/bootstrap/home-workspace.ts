/**
 * Chapter 4 writes inside the workspace without asking. In `/`, the home directory or a directory
 * above it, that would let the model rewrite `~/.bashrc` or `~/.ssh/authorized_keys`, which run
 * or grant access at the person's next login: the same workspaces the sandbox refuses to make
 * writable (unsafe-workspace.ts). Likewise in a place the host loads from: a dot-folder of `~`
 * (`~/.config` holds git's config and the harness's own settings), the harness's config and state
 * folders, a folder on PATH (any folder, when PATH holds `.` or an empty entry). All are refused
 * here before the run starts, sandbox or not; chapters 1–3, which ask before each write, still
 * work there.
 */
import { realpathSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { isWithinRoot, whereItLeads } from "../adapters/filesystem/index.js";
import { unsafeWorkspace } from "../adapters/sandbox/index.js";
import { settingsPath } from "../adapters/settings/index.js";
import { ConfigurationError } from "../core/common/configuration-error.js";
import type { Host } from "./host.js";
import { hostHome, namesCurrentFolder, pathFolders, relativePathEntries } from "./host-files.js";
import { stateRootFor } from "./open/run-store.js";

/** A profile that writes without asking was started where that is unsafe: exit 2. */
export class UnsafeWorkspaceError extends ConfigurationError {
  override readonly name = "UnsafeWorkspaceError";
}

const WHAT = {
  root: "it is /",
  home: "it is your home directory",
  "above-home": "it holds your home directory",
} as const;

/** What to do instead, said with every refusal of a place the host loads from. */
export const CHOOSE_A_PROJECT_FOLDER =
  "choose a project folder of its own (for example ~/projects/NAME: make it, then run the agent there or pass --workspace DIR), or use chapter 3, which asks before each write";

interface LoadedPlace {
  /** The folder as the person knows it (`~/.config`). */
  readonly name: string;
  /** Its real path, as the workspace is compared. */
  readonly real: string;
  readonly what: string;
}

/**
 * Throws UnsafeWorkspaceError (exit 2) when chapter 4 must not run in `workspace` (a real path).
 * `stateDir` is `--state-dir`, when given.
 */
export function assertHomeWorkspaceAllowed(workspace: string, host: Host, stateDir?: string): void {
  const named = hostHome(host);
  let home: string;
  try {
    home = realpathSync.native(named);
  } catch {
    home = resolve(named);
  }
  const unsafe = unsafeWorkspace(workspace, home, host.platform);
  if (unsafe !== undefined) {
    throw new UnsafeWorkspaceError(
      `chapter 4 refuses to work in ${workspace}: ${WHAT[unsafe]}, and chapter 4 writes files ` +
        `there without asking (~/.bashrc, ~/.ssh/authorized_keys run or let someone in at your ` +
        `next login); run the agent in a project directory`,
    );
  }
  // `.` or an empty entry on PATH makes whatever folder the shell is in a folder on PATH: this
  // one too, whenever the person works in it.
  const current = relativePathEntries(host).find(namesCurrentFolder);
  if (current !== undefined && host.platform !== "win32") {
    const entry = current === "" ? "an empty entry" : JSON.stringify(current);
    throw new UnsafeWorkspaceError(
      `chapter 4 refuses to work in ${workspace}: your PATH holds ${entry}, which names the ` +
        `folder your shell is in, so this folder is a folder on PATH while you work in it, whose ` +
        `files run as commands, and chapter 4 writes files there without asking; remove it from ` +
        `PATH (in your shell's start-up file), or use chapter 3, which asks before each write`,
    );
  }
  const place =
    loadedPlaces(host, home, stateDir).find((candidate) =>
      isWithinRoot(candidate.real, workspace, host.platform),
    ) ?? homeDotFolder(workspace, home, host.platform);
  if (place === undefined) return;
  throw new UnsafeWorkspaceError(
    `chapter 4 refuses to work in ${workspace}: it is ${place.real === workspace ? "" : "inside "}` +
      `${place.name}, ${place.what}, and chapter 4 writes files there without asking; ` +
      CHOOSE_A_PROJECT_FOLDER,
  );
}

/** The places the host loads settings or programs from, most specific first. */
function loadedPlaces(host: Host, home: string, stateDir: string | undefined): LoadedPlace[] {
  const { env, platform } = host;
  const places: LoadedPlace[] = [];
  const add = (path: string | undefined, what: string, name = path): void => {
    if (path === undefined || path === "" || name === undefined) return;
    places.push({ name, real: whereItLeads(path), what });
  };
  const harnessConfig = join(settingsPath({ env, platform, homeDirectory: home }), "..");
  add(harnessConfig, "the harness's own config folder (its settings and personal AGENTS.md)");
  add(stateRootFor(stateDir, host), "the harness's own state folder (its runs and grants)");
  for (const folder of pathFolders(host)) {
    add(folder, "a folder on PATH, whose files run as commands");
  }
  // Debian's and Fedora's ~/.profile put ~/bin on PATH at the next login if it exists.
  add(
    join(home, "bin"),
    "a folder your login shell puts on PATH, whose files run as commands",
    "~/bin",
  );
  const settingsFolders =
    platform === "win32"
      ? [env.APPDATA, env.LOCALAPPDATA]
      : [env.XDG_CONFIG_HOME, env.XDG_DATA_HOME].filter((folder) => folder?.startsWith("/"));
  for (const folder of settingsFolders) {
    add(folder, "where your programs keep the settings they load");
  }
  return places;
}

/**
 * The dot-folder of `home` that is or holds `workspace` (`~/.config`, `~/.local`, `~/.ssh`, a
 * `~/.dotfiles` repository): programs load their settings from these.
 */
function homeDotFolder(
  workspace: string,
  home: string,
  platform: NodeJS.Platform,
): LoadedPlace | undefined {
  if (!isWithinRoot(home, workspace, platform)) return undefined;
  const [first] = relative(home, workspace).split(sep);
  if (!first?.startsWith(".")) return undefined;
  return {
    name: `~/${first}`,
    real: join(home, first),
    what: "a folder of your home whose files your programs load (settings, keys, scripts)",
  };
}
