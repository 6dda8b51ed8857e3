/**
 * The programs a git hook runs are run later too: the hook itself is git's and refused
 * (adapters/filesystem's git rules), but a `.husky/pre-commit` that says `sh scripts/check.sh`
 * makes `scripts/check.sh` what the person's next commit runs on the host. A file tool's write of
 * a file a hook runs or names is asked about as an install-time script's is (install-scripts.ts).
 */

/** The git hook that runs or names the file a write lands on. */
export interface HookScriptRun {
  readonly kind: "git-hook";
  /** `pre-commit`, …; `hooks` when the hooks folder itself cannot be listed. */
  readonly hook: string;
  /** The hook's script (`.husky/pre-commit`), workspace-relative when inside it, else absolute. */
  readonly file: string;
  /** Why the hook could not be read fully: it may then run any file, so this one counts as run. */
  readonly unread?: string;
  /** Named by a word of the hook the reader would not bind: it may be run, or only mentioned. */
  readonly named?: true;
}

/** What the request says of it: `git's pre-commit hook (.husky/pre-commit) runs it at the next commit`. */
export function hookRunReason(run: HookScriptRun): string {
  const when = whenGitRuns(run.hook);
  if (run.hook === "hooks") {
    return `git's hooks folder (${run.file}) cannot be read fully (${run.unread ?? "unknown"}), so a hook in it may run it ${when}`;
  }
  const hook = `git's ${run.hook} hook (${run.file})`;
  if (run.unread !== undefined) {
    return `${hook} cannot be read fully (${run.unread}), so it may run it ${when}`;
  }
  return run.named === true
    ? `${hook} names it, and may run it ${when}`
    : `${hook} runs it ${when}`;
}

/** When git runs a hook, in the person's words. */
const WHEN: ReadonlyMap<string, string> = new Map([
  ["pre-commit", "at the next commit"],
  ["pre-merge-commit", "at the next merge"],
  ["prepare-commit-msg", "at the next commit"],
  ["commit-msg", "at the next commit"],
  ["post-commit", "at the next commit"],
  ["pre-rebase", "at the next rebase"],
  ["post-checkout", "at the next checkout"],
  ["post-merge", "at the next merge or pull"],
  ["pre-push", "at the next push"],
  ["post-rewrite", "at the next amend or rebase"],
  ["pre-auto-gc", "at the next git gc"],
  ["reference-transaction", "at the next git command that changes a ref"],
  ["fsmonitor-watchman", "at the next git status"],
]);

function whenGitRuns(hook: string): string {
  return WHEN.get(hook) ?? "when git next runs it";
}
