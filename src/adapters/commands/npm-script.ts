/**
 * What an allowed command will run, said in words for the approval and bound into its digest
 * (command-reach.ts). npm follows links, parses a package.json with a byte-order mark and obeys
 * the workspace's `.npmrc`; the harness reads both without following links and only as small
 * regular files. Where the two views could differ (a link whose target can change after the
 * approval, a FIFO, a directory, a file over the limit, JSON the harness cannot parse) there is
 * no text to bind, so the request is refused (NpmScriptError) instead of being taken for one that
 * runs no script.
 */
import { commandReachRows, commandTextReachRows } from "./command-reach.js";
import { readProjectFile } from "./project-file.js";

export { NpmScriptError } from "./npm-script-error.js";

/**
 * `npm test` → scripts.test, `npm run X` → scripts.X (each perhaps with `-- args`), with their
 * `pre`/`post` hooks, every script they reach through npm, every workspace file an interpreter is
 * given on the way and the workspace's `.npmrc`, read now; for another allowed program (`node
 * tools/check.js`), the workspace files it is given. Undefined when it runs nothing of the
 * workspace's. A form that hides what it runs throws UnbindableCommandError (npm-forms.ts,
 * script-words.ts); a file that cannot be read as npm would, NpmScriptError.
 */
export function npmScriptRows(
  workspace: string,
  argv: readonly string[],
  environmentMayHold?: (name: string) => boolean,
): readonly string[] | undefined {
  const read = (name: string): string | undefined => readProjectFile(workspace, name);
  return commandReachRows(workspace, argv, read, environmentMayHold);
}

/** npmScriptRows as one text, the rows joined by ` · `: what the approval's digest binds. */
export function npmScriptText(workspace: string, argv: readonly string[]): string | undefined {
  return npmScriptRows(workspace, argv)?.join(" · ");
}

/**
 * A shell command's text, read as a script's (command-reach.ts), as one text like npmScriptText.
 * `environmentMayHold` says which variables the command's environment may set (make reads them).
 */
export function shellTextReach(
  workspace: string,
  text: string,
  environmentMayHold?: (name: string) => boolean,
): string | undefined {
  const read = (name: string): string | undefined => readProjectFile(workspace, name);
  return commandTextReachRows(workspace, text, read, environmentMayHold)?.join(" · ");
}
