/**
 * Which git hook runs or names a file (core/policy/hook-scripts.ts): each hook git would run for
 * the repositories around the file (adapters/filesystem's gitHookScripts, husky's shims read
 * through to the person's `.husky/<hook>`), read as an install-time script is read
 * (script-file-reach.ts), from the repository's top, where git runs its hooks.
 */
import { dirname, isAbsolute, join, relative } from "node:path";
import { realpathSync } from "node:fs";
import type { HookScriptRun } from "../../core/policy/hook-scripts.js";
import { gitHookScripts, type GitHookScript } from "../filesystem/index.js";
import { scriptReach, toSlashes } from "./script-file-reach.js";

/**
 * The hook that runs or names the file at `landing` (workspace-relative, where a write lands,
 * links followed), or undefined. One that cannot be read counts as running it.
 */
export function hookScriptRun(workspace: string, landing: string): HookScriptRun | undefined {
  const root = realpathSync.native(workspace);
  for (const script of gitHookScripts(dirname(join(root, landing)))) {
    const run = { kind: "git-hook", hook: script.hook, file: shown(root, script.file) } as const;
    if (script.text === undefined) return { ...run, unread: script.unread ?? "unknown" };
    const reach = scriptReach(root, script.runsIn, hookCommands(script), landing);
    if (reach !== undefined) return { ...run, ...reach };
  }
  return undefined;
}

/**
 * The hook's text as the scan reads it: comment lines left out (the shell never reads them, and
 * a `*` or a backquote in one would hide nothing), `${1}` written `$1` (commitlint's `--edit
 * ${1}`: a hook's own argument, a file of git's, never one the workspace names).
 */
function hookCommands(script: GitHookScript): string {
  return (script.text ?? "")
    .split("\n")
    .filter((line) => !/^\s*#/u.test(line))
    .join("\n")
    .replace(/\$\{(\w+)\}/gu, "$$$1");
}

/** The hook's file as the person knows it: from the workspace when inside it. */
function shown(root: string, file: string): string {
  const inside = relative(root, file);
  return inside === "" || inside.startsWith("..") || isAbsolute(inside) ? file : toSlashes(inside);
}
