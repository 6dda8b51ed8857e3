/**
 * What a shell command binds for a run grant (`a` at `[y/N/a]`): the npm scripts it reaches and
 * the workspace files it runs, names or feeds it (`<`), read now (as P04 binds its approvals). A grant keyed by this text asks again once any of it changes. Every command is
 * read as a script's text is, by the one reader (`NODE_OPTIONS=… node t.js` binds what
 * NODE_OPTIONS loads, `xargs …` is refused, as in a script). A command with a word the shell
 * expands (a variable, a glob, `~`) cannot be bound, whatever program reads it (`awk -f prog.aw?`
 * runs a file no word names), and throws: it then gets no grant (its `a` counts as `y`).
 */
import { UnbindableCommandError } from "../../core/grants/unbindable-command.js";
import { expandedWord } from "./script-words.js";
import { shellTextReach } from "./npm-script.js";

export function shellCommandBinding(
  workspace: string,
  command: string,
  /** Which variables the command's environment may hold: make takes values from there. */
  environmentMayHold?: (name: string) => boolean,
): string | undefined {
  // Substitutions and here-documents throw in the reader itself (UnbindableCommandError).
  const expanded = expandedWord(command);
  if (expanded !== undefined) {
    throw new UnbindableCommandError(
      `the command's word ${JSON.stringify(expanded)} is one the shell expands (a variable, a glob, ~), which hides which files it runs`,
    );
  }
  // `./f.sh | tail -5` binds f.sh as `./f.sh` alone does; `npm test` binds its script as P04 does.
  return shellTextReach(workspace, command, environmentMayHold);
}
