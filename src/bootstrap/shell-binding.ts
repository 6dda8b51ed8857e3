/**
 * What a shell command binds for a run grant (`a` at `[y/N/a]`): the npm scripts it reaches and
 * the workspace files it runs or names, read now (adapters/commands, as P04 binds its approvals).
 * A grant keyed by this text asks again once any of it changes. Every command is read as a
 * script's text is, by the one reader (plain words too: `NODE_OPTIONS=… node t.js` binds what
 * NODE_OPTIONS loads, `xargs …` is refused, as in a script). A command whose text is not
 * plain words but names a runner of workspace scripts cannot be bound, and throws: it then gets
 * no grant (its `a` counts as `y`).
 */
import { shellTextReach } from "../adapters/commands/index.js";

/**
 * Words of letters, digits and `-_./=:@+,%`, and the operators between commands (`|`, `&&`, `;`,
 * `2>&1`, `> out.txt`), which the script reader takes apart as a script's: nothing a shell would
 * expand (no quote, variable, glob, brace, `~`, substitution, subshell or here-document).
 */
const PLAIN = /^(?!.*<<)[\w\-./=:@+,%|&;<> \t]+$/u;
/** Programs that run what the workspace says (its scripts or files). */
const RUNNERS =
  /(?:^|[\s;&|()`$])(?:npm|npx|pnpm|yarn|node|deno|bun|python3?|ruby|perl|bash|sh|zsh|pwsh|make|tsx|ts-node)(?=$|[\s;&|()`])/u;

export class UnboundCommandError extends Error {
  override readonly name = "UnboundCommandError";
}

export function shellCommandBinding(workspace: string, command: string): string | undefined {
  if (!PLAIN.test(command) && RUNNERS.test(command)) {
    throw new UnboundCommandError(
      "the command's text has quotes, variables, globs or substitutions, which hide which scripts it runs",
    );
  }
  // `./f.sh | tail -5` binds f.sh as `./f.sh` alone does; `npm test` binds its script as P04 does.
  return shellTextReach(workspace, command);
}
