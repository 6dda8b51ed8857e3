/**
 * Thrown by a `scriptOf` (P04Context) for an allowlisted command whose code the harness cannot
 * bind to an approval: a package-manager form that runs scripts, hooks or packages it does not
 * read (`npm install`, `npx`, `pnpm`, an npm flag that changes what runs, …). P04 denies it as
 * `command_unbindable` with this message, which says why in words a person understands.
 */
export class UnbindableCommandError extends Error {
  override readonly name: string = "UnbindableCommandError";
}

/**
 * The command (or a makefile it reads) sets a variable that chooses where programs find their
 * code or which program a name runs (PATH, PYTHONPATH, LD_PRELOAD, BASH_ENV exported by make,
 * …): any file of the workspace may then run, so a script that does this counts as running any
 * file (a write asks), not only as one the harness cannot bind.
 */
export class LoaderVariableError extends UnbindableCommandError {
  override readonly name = "LoaderVariableError";
}
