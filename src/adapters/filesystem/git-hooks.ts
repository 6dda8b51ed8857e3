/**
 * The hook scripts git will run for the repositories around a folder: each hook of git's in the
 * hooks folder it uses (`.git/hooks/`, or what `core.hooksPath` names), with its text, so that
 * what a hook runs can be told (adapters/commands/hook-script-files.ts). The folder is found as
 * the delegation scan finds it (git-delegated-paths.ts), from the config files, never by running
 * git. Husky's own shims are read through to the hook the person wrote, which is what they run;
 * pre-commit's and lefthook's to the commands in their config (hook-manager-configs.ts).
 */
import { readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { firstLineOfError } from "../../core/common/one-line.js";
import { childPath } from "./child-path.js";
import { errorCode } from "./fs-errors.js";
import {
  defaultDelegationContext,
  repositoriesAround,
  repositoryHooks,
  type DelegationContext,
} from "./git-delegated-paths.js";
import { managedScripts } from "./hook-manager-configs.js";
import { readHook, type HookRead } from "./hook-text.js";

export interface GitHookScript {
  /** The hook git runs it as: `pre-commit`; `hooks` when the folder itself cannot be listed. */
  readonly hook: string;
  /**
   * The script, absolute: the hook file, the `.husky/<hook>` a husky shim runs, or the config
   * whose commands a hook manager's shim runs.
   */
  readonly file: string;
  /** The folder git runs the hook in (the repository's top), where its relative names start. */
  readonly runsIn: string;
  /** Its text, husky's own preamble left out; undefined when it could not be read. */
  readonly text?: string;
  /** Why it could not be read: any file may then be what it runs. */
  readonly unread?: string;
}

/** Every hook git knows (githooks(5)): no other name in the folder is ever run. */
const GIT_HOOK_NAMES: ReadonlySet<string> = new Set([
  "applypatch-msg",
  "pre-applypatch",
  "post-applypatch",
  "pre-commit",
  "pre-merge-commit",
  "prepare-commit-msg",
  "commit-msg",
  "post-commit",
  "pre-rebase",
  "post-checkout",
  "post-merge",
  "pre-push",
  "pre-receive",
  "update",
  "proc-receive",
  "post-receive",
  "post-update",
  "reference-transaction",
  "push-to-checkout",
  "pre-auto-gc",
  "post-rewrite",
  "sendemail-validate",
  "fsmonitor-watchman",
  "post-index-change",
  "p4-changelist",
  "p4-prepare-changelist",
  "p4-post-changelist",
  "p4-pre-submit",
]);

/**
 * husky v9's shim (`.husky/_/pre-commit`): it sources `.husky/_/h`, which runs `.husky/<hook>`
 * with `sh -e`, or nothing when there is none. Older v9 releases wrote the `$(dirname …)` form.
 */
const HUSKY_SHIM =
  /^#!\/usr\/bin\/env sh\n\. "(?:\$\{0%\/\*\}|\$\(dirname (?:-- )?"\$0"\))\/h"\n*$/u;
/**
 * husky v4–v8's preamble in a person's hook, sourcing husky's own script from the hooks folder's
 * `_/` (which the agent may not write: git-delegated-paths.ts): it runs nothing of the workspace.
 */
const HUSKY_PREAMBLE = /^\s*\.\s+"\$\(dirname(?: --)? "\$0"\)\/_\/husky\.sh"\s*$/gmu;

/**
 * The hooks git runs for every repository whose worktree holds `directory` (as git, a nested
 * repository's and those above it), each with its text or why it could not be read.
 */
export function gitHookScripts(
  directory: string,
  context: DelegationContext = defaultDelegationContext(),
): GitHookScript[] {
  return repositoriesAround(directory).flatMap((repository) => {
    const { folder, runsIn } = repositoryHooks(repository, context);
    return hooksIn(folder, runsIn);
  });
}

function hooksIn(folder: string, runsIn: string): GitHookScript[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch (error) {
    // No folder, no hooks; one git may reach but the harness cannot list may hold any.
    const code = errorCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    return [{ hook: "hooks", file: folder, runsIn, unread: firstLineOfError(error) }];
  }
  const scripts: GitHookScript[] = [];
  const add = (hook: string, file: string, read: HookRead): void => {
    switch (read.kind) {
      case "missing":
        return;
      case "text":
        scripts.push({ hook, file, runsIn, text: read.text.replace(HUSKY_PREAMBLE, "") });
        return;
      case "unread":
        scripts.push({ hook, file, runsIn, unread: read.unread });
        return;
    }
  };
  // Git opens `<folder>/pre-commit`; a case-blind filesystem gives it `Pre-Commit` too.
  for (const name of names.sort()) {
    const hook = name.toLowerCase();
    if (!GIT_HOOK_NAMES.has(hook)) continue;
    const file = childPath(folder, name);
    const read = readHook(file);
    const managed = read.kind === "text" ? managedScripts(read.text, runsIn) : undefined;
    if (read.kind === "text" && basename(folder) === "_" && HUSKY_SHIM.test(read.text)) {
      // husky's `h` runs the person's `.husky/<hook>`, and nothing when there is none.
      const written = join(dirname(folder), hook);
      add(hook, written, readHook(written));
    } else if (managed !== undefined) {
      for (const config of managed) add(hook, config.file, config.read);
    } else {
      add(hook, file, read);
    }
  }
  return scripts;
}
