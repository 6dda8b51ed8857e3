/** What npm would run cannot be said; P04 denies the command rather than bind nothing. */
export class NpmScriptError extends Error {
  override readonly name = "NpmScriptError";
}
