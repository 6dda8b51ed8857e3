/**
 * A command must not turn the workspace into a repository where there was none: the person's next
 * git command there would run the hooks and programs its config names (`core.fsmonitor`,
 * `core.pager`, an alias), on the host, outside the sandbox. A workspace that is no repository of
 * its own (none yet, or a folder inside a larger one) becomes one when a `.git` appears at its top,
 * or a `HEAD` beside `objects/` and `refs/` (git takes a directory laid out so for a git dir).
 * Neither exists yet, so neither can be bound read-only: each is held for the command's length
 * with a placeholder (absent-placeholders.ts), an empty directory for `.git` and an empty file
 * for `HEAD`, neither of which git takes for a repository.
 */
import { lstatSync } from "node:fs";
import path from "node:path";
import { hasPlaceholderShape } from "./placeholder-shape.js";

/**
 * The names at the top of `workspace` to hold for one command: none when it has a `.git` of its
 * own (bound read-only as it is, and found before any bare layout); otherwise `.git`, and `HEAD`
 * unless a file of the person's is there. One with a placeholder's shape already is held too:
 * another run may hold it, and must not remove it while this command has it bound.
 */
export function rootGitNamesToHold(workspace: string): string[] {
  const held = [path.join(workspace, ".git"), path.join(workspace, "HEAD")].filter((candidate) => {
    const stats = lstatSync(candidate, { throwIfNoEntry: false });
    return stats === undefined || hasPlaceholderShape(candidate, stats);
  });
  return held[0] === path.join(workspace, ".git") ? held : [];
}
