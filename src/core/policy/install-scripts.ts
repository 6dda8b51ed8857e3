/**
 * The programs a package.json's install-time scripts run are loaded later too: `package.json` is
 * on the list (loaded-later-files.ts), but `"postinstall": "node scripts/post.js"` makes
 * `scripts/post.js` what the person's next `npm install` runs on the host. A file tool's write of
 * a file such a script runs or names is asked about as a loaded-later file's is.
 */

/** The scripts npm runs in a package on a plain `npm install` or `npm ci`. */
export const INSTALL_TIME_SCRIPTS: readonly string[] = Object.freeze([
  "preinstall",
  "install",
  "postinstall",
  "preprepare",
  "prepare",
  "postprepare",
  "prepublish",
  // Run after an install changed node_modules (a `file:` dependency, say).
  "dependencies",
]);

/** The install-time script that runs or names the file a write lands on. */
export interface InstallScriptRun {
  readonly kind: "install-script";
  /** The package.json, workspace-relative and `/`-separated. */
  readonly manifest: string;
  /** `postinstall`, …; `scripts` when the package.json itself cannot be read. */
  readonly script: string;
  /**
   * Why the script could not be read fully (`cd`, `eval`, a name the shell expands, a file it
   * runs that cannot be read): it may then run any file, so this one counts as run.
   */
  readonly unread?: string;
  /** Named by a word of a script the reader would not bind: it may be run, or only mentioned. */
  readonly named?: true;
}

/** What the request says of it: `package.json's postinstall runs it at the next npm install`. */
export function installRunReason(run: InstallScriptRun): string {
  const script = `${run.manifest}'s ${run.script}`;
  if (run.unread !== undefined) {
    return `${script} cannot be read fully (${run.unread}), so it may run it at the next npm install`;
  }
  return run.named === true
    ? `${script} names it, and may run it at the next npm install`
    : `${script} runs it at the next npm install`;
}
