/**
 * Which file a write lands on when a link leads its named path elsewhere: `notes.txt` → `src/a.ts`.
 * Worked out from the real path the boundary check itself resolved, so what the person is shown is
 * what was decided on, not a second look-up by name.
 */
import { relative, resolve, sep } from "node:path";

/**
 * `target` is the absolute real path the boundary resolved `path` to, below the workspace's real
 * path `root`. Undefined when the name itself leads there (no link on the way); else the target,
 * workspace-relative, `/`-separated.
 */
export function writeLanding(root: string, path: string, target: string): string | undefined {
  if (resolve(root, path) === target) return undefined;
  return relative(root, target).split(sep).join("/");
}
