/**
 * Scripts the host runs later, on the person's next command rather than the agent's: a
 * package.json's install-time scripts (install-scripts.ts) and git's hooks (hook-scripts.ts).
 * A file one of them runs or names is loaded later (write-loaded-later.ts), with a reason per source.
 */
import { hookRunReason, type HookScriptRun } from "./hook-scripts.js";
import { installRunReason, type InstallScriptRun } from "./install-scripts.js";

export type LaterScriptRun = InstallScriptRun | HookScriptRun;

/** What the request says of the script that runs the file written. */
export function laterRunReason(run: LaterScriptRun): string {
  switch (run.kind) {
    case "install-script":
      return installRunReason(run);
    case "git-hook":
      return hookRunReason(run);
  }
}
