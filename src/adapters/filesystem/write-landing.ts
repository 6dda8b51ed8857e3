/**
 * Which file a write lands on when a link leads its named path elsewhere: `notes.txt` → `src/a.ts`.
 * Worked out from the real path the boundary check itself resolved, so what the person is shown is
 * what was decided on, not a second look-up by name.
 */
import { isAbsolute, relative, resolve, sep } from "node:path";

export interface WriteLandingOptions {
  /**
   * The workspace as configured, which may reach `root` through a link above it (macOS's
   * `/tmp` → `/private/tmp`): an absolute path may name the workspace either way.
   */
  readonly workspace?: string;
  /** Where names differ only in letter case or Unicode form, they name one file. */
  readonly platform?: NodeJS.Platform;
}

/**
 * `target` is the absolute real path the boundary resolved `path` to, below the workspace's real
 * path `root`. Undefined when the name itself leads there (no link on the way); else the target,
 * workspace-relative, `/`-separated. Both sides are compared as names below the workspace, so a
 * link above it (the person's, not the write's) is no link on the way.
 */
export function writeLanding(
  root: string,
  path: string,
  target: string,
  options: WriteLandingOptions = {},
): string | undefined {
  const landed = relative(root, target);
  const named = nameBelow(root, options.workspace, path);
  if (named !== undefined && sameName(named, landed, options.platform ?? process.platform)) {
    return undefined;
  }
  return landed.split(sep).join("/");
}

/** `path` as a name below the workspace, reached by either of its names; else undefined. */
function nameBelow(root: string, workspace: string | undefined, path: string): string | undefined {
  if (!isAbsolute(path)) return relative(root, resolve(root, path));
  for (const base of workspace === undefined ? [root] : [root, workspace]) {
    const below = relative(resolve(base), resolve(path));
    if (below !== ".." && !below.startsWith(`..${sep}`) && !isAbsolute(below)) return below;
  }
  return undefined;
}

/** macOS and Windows filesystems ignore letter case, and macOS the Unicode form, by default. */
function sameName(a: string, b: string, platform: NodeJS.Platform): boolean {
  if (platform !== "darwin" && platform !== "win32") return a === b;
  const fold = (name: string): string => name.normalize("NFC").toLowerCase();
  return fold(a) === fold(b);
}
