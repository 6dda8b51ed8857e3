/**
 * Thrown by a `scriptOf` (P04Context) for an allowlisted command whose code the harness cannot
 * bind to an approval: a package-manager form that runs scripts, hooks or packages it does not
 * read (`npm install`, `npx`, `pnpm`, an npm flag that changes what runs, …). P04 denies it as
 * `command_unbindable` with this message, which says why in words a person understands.
 */
export class UnbindableCommandError extends Error {
  override readonly name = "UnbindableCommandError";
}
