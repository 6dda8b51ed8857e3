/**
 * A workspace no one may make writable wholesale: `/`, the home directory, or a directory that
 * holds the home directory. Whatever is writable there includes `~/.bashrc`, `~/.ssh/
 * authorized_keys` and the shell's other start-up files, which run on the host at the person's
 * next login. The sandbox refuses such a workspace for its writable bind (bubblewrap-args.ts);
 * chapter 4, which writes inside the workspace without asking, refuses to start in one.
 */
import path from "node:path";
import { isWithinRoot } from "../filesystem/index.js";

export type UnsafeWorkspace = "root" | "home" | "above-home";

/**
 * Why `workspace` (a real path) is unsafe to make writable, or undefined when it is a project
 * directory. `home` is the home directory's real path; `platform` decides how paths compare.
 */
export function unsafeWorkspace(
  workspace: string,
  home: string | undefined,
  platform: NodeJS.Platform = process.platform,
): UnsafeWorkspace | undefined {
  const flavour = platform === "win32" ? path.win32 : path.posix;
  if (flavour.parse(workspace).root === workspace) return "root";
  if (home === undefined || !isWithinRoot(workspace, home, platform)) return undefined;
  return isWithinRoot(home, workspace, platform) ? "home" : "above-home";
}
