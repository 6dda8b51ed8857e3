/**
 * A command must not turn the workspace into a repository where there was none: the person's next
 * git command there would run the hooks and programs its config names (`core.fsmonitor`,
 * `core.pager`, an alias), on the host, outside the sandbox. A workspace that is no repository of
 * its own (none yet, or a folder inside a larger one) becomes one when a `.git` appears at its top
 * (`git init .`). There is none to bind read-only, so it is held for the command's length with a
 * placeholder (absent-placeholders.ts): an empty directory, which git takes for no repository and
 * looks on upwards. A `HEAD` beside `objects/` and `refs/` (a bare layout) is not held: an empty
 * `HEAD` in every listing broke ordinary commands (`rm -rf ./*`, scaffolders that want an empty
 * folder); a command that lays the top out so is named after its output instead (bubblewrap.ts).
 */
import { lstatSync } from "node:fs";
import path from "node:path";
import { hasPlaceholderShape } from "./placeholder-shape.js";

/**
 * The names at the top of `workspace` to hold for one command: `.git` when it is not there, or
 * when it has a placeholder's shape (another run may hold it, and must not remove it while this
 * command has it bound; the person's own empty one is bound as it is). None when the workspace
 * has a `.git` of its own: that one is bound read-only as it is.
 */
export function rootGitNamesToHold(workspace: string): string[] {
  const git = path.join(workspace, ".git");
  const stats = lstatSync(git, { throwIfNoEntry: false });
  return stats === undefined || hasPlaceholderShape(git, stats) ? [git] : [];
}
